---- MODULE Strings_TTrace_1796010028 ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Strings

_expression ==
    LET Strings_TEExpression == INSTANCE Strings_TEExpression
    IN Strings_TEExpression!expression
----

_trace ==
    LET Strings_TETrace == INSTANCE Strings_TETrace
    IN Strings_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        log = (<<"pong", "pong">>)
    )
----

_init ==
    /\ log = _TETrace[1].log
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ log  = _TETrace[i].log
        /\ log' = _TETrace[j].log

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Strings_TTrace_1796010028.json", _TETrace)

=============================================================================

 Note that you can extract this module `Strings_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Strings_TEExpression.tla` file takes precedence 
  over the module `Strings_TEExpression` below).

---- MODULE Strings_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Strings

expression == 
    [
        \* To hide variables of the `Strings` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        log |-> log
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_logUnchanged |-> log = log'
        
        \* Format the `log` variable as Json value.
        \* ,_logJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(log)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_logModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].log # _TETrace[s-1].log
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Strings_TETrace ----
\*EXTENDS IOUtils, TLC, Strings
\*
\*trace == IODeserialize("Strings_TTrace_1796010028.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Strings_TETrace ----
EXTENDS TLC, Strings

trace == 
    <<
    ([log |-> <<>>]),
    ([log |-> <<"pong">>]),
    ([log |-> <<"pong", "pong">>])
    >>
----


=============================================================================

---- CONFIG Strings_TTrace_1796010028 ----

INVARIANT
    _inv

CHECK_DEADLOCK
    \* CHECK_DEADLOCK off because of PROPERTY or INVARIANT above.
    FALSE

INIT
    _init

NEXT
    _next

CONSTANT
    _TETrace <- _trace

ALIAS
    _expression
=============================================================================
\* Generated on Mon Nov 30 03:40:29 UTC 2026