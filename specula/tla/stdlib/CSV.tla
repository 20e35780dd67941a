--------------------------------- MODULE CSV ---------------------------------
(* specula's text of the community module CSV.  Reading and writing files is *)
(* native (as TLC's Java overrides); the bodies below only fix the arities.  *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers

\* appends a line: template (Java format, %1$s ...) filled with val's elements
CSVWrite(template, val, file) == TRUE
\* appends the record's values (and first its field names when headers)
CSVWriteRecord(record, delim, headers, file) == TRUE
\* the lines of file as records with the given columns (all values strings)
CSVRead(columns, delimiter, file) == << >>
\* the number of lines of file (0 when it does not exist)
CSVRecords(file) == CHOOSE n \in Nat : TRUE
=============================================================================
