---- MODULE Arith_TTrace_1796010009 ----
EXTENDS Sequences, TLCExt, Arith, Toolbox, Naturals, TLC

_expression ==
    LET Arith_TEExpression == INSTANCE Arith_TEExpression
    IN Arith_TEExpression!expression
----

_trace ==
    LET Arith_TETrace == INSTANCE Arith_TETrace
    IN Arith_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        x = (9)
        /\
        n = (12)
    )
----

_init ==
    /\ n = _TETrace[1].n
    /\ x = _TETrace[1].x
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ n  = _TETrace[i].n
        /\ n' = _TETrace[j].n
        /\ x  = _TETrace[i].x
        /\ x' = _TETrace[j].x

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Arith_TTrace_1796010009.json", _TETrace)

=============================================================================

 Note that you can extract this module `Arith_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Arith_TEExpression.tla` file takes precedence 
  over the module `Arith_TEExpression` below).

---- MODULE Arith_TEExpression ----
EXTENDS Sequences, TLCExt, Arith, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `Arith` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        n |-> n
        ,x |-> x
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_nUnchanged |-> n = n'
        
        \* Format the `n` variable as Json value.
        \* ,_nJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(n)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_nModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].n # _TETrace[s-1].n
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Arith_TETrace ----
\*EXTENDS IOUtils, Arith, TLC
\*
\*trace == IODeserialize("Arith_TTrace_1796010009.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Arith_TETrace ----
EXTENDS Arith, TLC

trace == 
    <<
    ([x |-> 1,n |-> 0]),
    ([x |-> 4,n |-> 1]),
    ([x |-> 14,n |-> 2]),
    ([x |-> 12,n |-> 3]),
    ([x |-> 10,n |-> 4]),
    ([x |-> 12,n |-> 5]),
    ([x |-> 0,n |-> 6]),
    ([x |-> 13,n |-> 7]),
    ([x |-> 14,n |-> 8]),
    ([x |-> 9,n |-> 9]),
    ([x |-> 12,n |-> 10]),
    ([x |-> 6,n |-> 11]),
    ([x |-> 9,n |-> 12])
    >>
----


=============================================================================

---- CONFIG Arith_TTrace_1796010009 ----

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
\* Generated on Mon Nov 30 03:40:10 UTC 2026