---- MODULE MutexBuggy_TTrace_1796009860 ----
EXTENDS Sequences, TLCExt, Toolbox, MutexBuggy_TEConstants, Naturals, TLC, MutexBuggy

_expression ==
    LET MutexBuggy_TEExpression == INSTANCE MutexBuggy_TEExpression
    IN MutexBuggy_TEExpression!expression
----

_trace ==
    LET MutexBuggy_TETrace == INSTANCE MutexBuggy_TETrace
    IN MutexBuggy_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        flag = ((a :> TRUE @@ b :> TRUE))
        /\
        pc = ((a :> "cs" @@ b :> "cs"))
    )
----

_init ==
    /\ flag = _TETrace[1].flag
    /\ pc = _TETrace[1].pc
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ flag  = _TETrace[i].flag
        /\ flag' = _TETrace[j].flag
        /\ pc  = _TETrace[i].pc
        /\ pc' = _TETrace[j].pc

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("MutexBuggy_TTrace_1796009860.json", _TETrace)

=============================================================================

 Note that you can extract this module `MutexBuggy_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `MutexBuggy_TEExpression.tla` file takes precedence 
  over the module `MutexBuggy_TEExpression` below).

---- MODULE MutexBuggy_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, MutexBuggy_TEConstants, Naturals, TLC, MutexBuggy

expression == 
    [
        \* To hide variables of the `MutexBuggy` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        flag |-> flag
        ,pc |-> pc
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_flagUnchanged |-> flag = flag'
        
        \* Format the `flag` variable as Json value.
        \* ,_flagJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(flag)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_flagModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].flag # _TETrace[s-1].flag
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE MutexBuggy_TETrace ----
\*EXTENDS IOUtils, MutexBuggy_TEConstants, TLC, MutexBuggy
\*
\*trace == IODeserialize("MutexBuggy_TTrace_1796009860.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE MutexBuggy_TETrace ----
EXTENDS MutexBuggy_TEConstants, TLC, MutexBuggy

trace == 
    <<
    ([flag |-> (a :> FALSE @@ b :> FALSE),pc |-> (a :> "idle" @@ b :> "idle")]),
    ([flag |-> (a :> FALSE @@ b :> FALSE),pc |-> (a :> "set" @@ b :> "idle")]),
    ([flag |-> (a :> FALSE @@ b :> FALSE),pc |-> (a :> "set" @@ b :> "set")]),
    ([flag |-> (a :> TRUE @@ b :> FALSE),pc |-> (a :> "cs" @@ b :> "set")]),
    ([flag |-> (a :> TRUE @@ b :> TRUE),pc |-> (a :> "cs" @@ b :> "cs")])
    >>
----


=============================================================================

---- MODULE MutexBuggy_TEConstants ----
EXTENDS MutexBuggy

CONSTANTS a, b

=============================================================================

---- CONFIG MutexBuggy_TTrace_1796009860 ----
CONSTANTS
    Procs = { a , b }
    b = b
    a = a

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
\* Generated on Mon Nov 30 03:37:41 UTC 2026