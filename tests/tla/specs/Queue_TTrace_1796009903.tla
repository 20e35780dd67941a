---- MODULE Queue_TTrace_1796009903 ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Queue

_expression ==
    LET Queue_TEExpression == INSTANCE Queue_TEExpression
    IN Queue_TEExpression!expression
----

_trace ==
    LET Queue_TETrace == INSTANCE Queue_TETrace
    IN Queue_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        q = ()
        /\
        got = (<<1>>)
    )
----

_init ==
    /\ q = _TETrace[1].q
    /\ got = _TETrace[1].got
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ q  = _TETrace[i].q
        /\ q' = _TETrace[j].q
        /\ got  = _TETrace[i].got
        /\ got' = _TETrace[j].got

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Queue_TTrace_1796009903.json", _TETrace)

=============================================================================

 Note that you can extract this module `Queue_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Queue_TEExpression.tla` file takes precedence 
  over the module `Queue_TEExpression` below).

---- MODULE Queue_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Queue

expression == 
    [
        \* To hide variables of the `Queue` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        q |-> q
        ,got |-> got
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_qUnchanged |-> q = q'
        
        \* Format the `q` variable as Json value.
        \* ,_qJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(q)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_qModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].q # _TETrace[s-1].q
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Queue_TETrace ----
\*EXTENDS IOUtils, TLC, Queue
\*
\*trace == IODeserialize("Queue_TTrace_1796009903.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Queue_TETrace ----
EXTENDS TLC, Queue

trace == 
    <<
    ([q |-> <<>>,got |-> <<>>]),
    ([q |-> <<1>>,got |-> <<>>]),
    ([q |-> ,got |-> <<1>>])
    >>
----


=============================================================================

---- CONFIG Queue_TTrace_1796009903 ----
CONSTANTS
    Msgs = { 1 , 2 }
    Cap = 3

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
\* Generated on Mon Nov 30 03:38:23 UTC 2026