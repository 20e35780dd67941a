---- MODULE Jugs_TTrace_1796139515 ----
EXTENDS Sequences, TLCExt, Jugs, Toolbox, Naturals, TLC

_expression ==
    LET Jugs_TEExpression == INSTANCE Jugs_TEExpression
    IN Jugs_TEExpression!expression
----

_trace ==
    LET Jugs_TETrace == INSTANCE Jugs_TETrace
    IN Jugs_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        small = (3)
        /\
        big = (4)
    )
----

_init ==
    /\ big = _TETrace[1].big
    /\ small = _TETrace[1].small
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ big  = _TETrace[i].big
        /\ big' = _TETrace[j].big
        /\ small  = _TETrace[i].small
        /\ small' = _TETrace[j].small

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Jugs_TTrace_1796139515.json", _TETrace)

=============================================================================

 Note that you can extract this module `Jugs_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Jugs_TEExpression.tla` file takes precedence 
  over the module `Jugs_TEExpression` below).

---- MODULE Jugs_TEExpression ----
EXTENDS Sequences, TLCExt, Jugs, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `Jugs` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        big |-> big
        ,small |-> small
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_bigUnchanged |-> big = big'
        
        \* Format the `big` variable as Json value.
        \* ,_bigJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(big)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_bigModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].big # _TETrace[s-1].big
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Jugs_TETrace ----
\*EXTENDS IOUtils, Jugs, TLC
\*
\*trace == IODeserialize("Jugs_TTrace_1796139515.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Jugs_TETrace ----
EXTENDS Jugs, TLC

trace == 
    <<
    ([small |-> 0,big |-> 0]),
    ([small |-> 0,big |-> 5]),
    ([small |-> 3,big |-> 2]),
    ([small |-> 0,big |-> 2]),
    ([small |-> 2,big |-> 0]),
    ([small |-> 2,big |-> 5]),
    ([small |-> 3,big |-> 4])
    >>
----


=============================================================================

---- CONFIG Jugs_TTrace_1796139515 ----

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
\* Generated on Tue Dec 01 15:38:40 UTC 2026