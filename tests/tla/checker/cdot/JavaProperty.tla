---- MODULE JavaProperty ----
\* TLCGet("-Dname") reads a Java system property of TLC's JVM (newer TLCs than 2.18; its
\* default is "-Dname" itself): the Examples' MCCRDT asks whether action composition is on.
EXTENDS TLC
ASSUME TLCGet("-Dtlc2.tool.impl.Tool.cdot") = "true"
ASSUME TLCGet("-Dno.such.property") = "-Dno.such.property"
VARIABLE x
Init == x = 0
Next == UNCHANGED x
====
