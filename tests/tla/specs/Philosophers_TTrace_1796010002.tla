---- MODULE Philosophers_TTrace_1796010002 ----
EXTENDS Philosophers, Sequences, TLCExt, Toolbox, Naturals, TLC

_expression ==
    LET Philosophers_TEExpression == INSTANCE Philosophers_TEExpression
    IN Philosophers_TEExpression!expression
----

_trace ==
    LET Philosophers_TETrace == INSTANCE Philosophers_TETrace
    IN Philosophers_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        st = ((0 :> "left" @@ 1 :> "left" @@ 2 :> "left"))
        /\
        fork = ((0 :> 0 @@ 1 :> 1 @@ 2 :> 2))
    )
----

_init ==
    /\ st = _TETrace[1].st
    /\ fork = _TETrace[1].fork
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ st  = _TETrace[i].st
        /\ st' = _TETrace[j].st
        /\ fork  = _TETrace[i].fork
        /\ fork' = _TETrace[j].fork

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Philosophers_TTrace_1796010002.json", _TETrace)

=============================================================================

 Note that you can extract this module `Philosophers_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Philosophers_TEExpression.tla` file takes precedence 
  over the module `Philosophers_TEExpression` below).

---- MODULE Philosophers_TEExpression ----
EXTENDS Philosophers, Sequences, TLCExt, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `Philosophers` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        st |-> st
        ,fork |-> fork
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_stUnchanged |-> st = st'
        
        \* Format the `st` variable as Json value.
        \* ,_stJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(st)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_stModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].st # _TETrace[s-1].st
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Philosophers_TETrace ----
\*EXTENDS Philosophers, IOUtils, TLC
\*
\*trace == IODeserialize("Philosophers_TTrace_1796010002.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Philosophers_TETrace ----
EXTENDS Philosophers, TLC

trace == 
    <<
    ([st |-> (0 :> "think" @@ 1 :> "think" @@ 2 :> "think"),fork |-> (0 :> 3 @@ 1 :> 3 @@ 2 :> 3)]),
    ([st |-> (0 :> "left" @@ 1 :> "think" @@ 2 :> "think"),fork |-> (0 :> 0 @@ 1 :> 3 @@ 2 :> 3)]),
    ([st |-> (0 :> "left" @@ 1 :> "left" @@ 2 :> "think"),fork |-> (0 :> 0 @@ 1 :> 1 @@ 2 :> 3)]),
    ([st |-> (0 :> "left" @@ 1 :> "left" @@ 2 :> "left"),fork |-> (0 :> 0 @@ 1 :> 1 @@ 2 :> 2)])
    >>
----


=============================================================================

---- CONFIG Philosophers_TTrace_1796010002 ----
CONSTANTS
    N = 3

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
\* Generated on Mon Nov 30 03:40:03 UTC 2026