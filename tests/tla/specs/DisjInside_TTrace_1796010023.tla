---- MODULE DisjInside_TTrace_1796010023 ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, DisjInside

_expression ==
    LET DisjInside_TEExpression == INSTANCE DisjInside_TEExpression
    IN DisjInside_TEExpression!expression
----

_trace ==
    LET DisjInside_TETrace == INSTANCE DisjInside_TETrace
    IN DisjInside_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        x = (3)
        /\
        y = (-1)
    )
----

_init ==
    /\ x = _TETrace[1].x
    /\ y = _TETrace[1].y
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ x  = _TETrace[i].x
        /\ x' = _TETrace[j].x
        /\ y  = _TETrace[i].y
        /\ y' = _TETrace[j].y

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("DisjInside_TTrace_1796010023.json", _TETrace)

=============================================================================

 Note that you can extract this module `DisjInside_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `DisjInside_TEExpression.tla` file takes precedence 
  over the module `DisjInside_TEExpression` below).

---- MODULE DisjInside_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, DisjInside

expression == 
    [
        \* To hide variables of the `DisjInside` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        x |-> x
        ,y |-> y
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_xUnchanged |-> x = x'
        
        \* Format the `x` variable as Json value.
        \* ,_xJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(x)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_xModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].x # _TETrace[s-1].x
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE DisjInside_TETrace ----
\*EXTENDS IOUtils, TLC, DisjInside
\*
\*trace == IODeserialize("DisjInside_TTrace_1796010023.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE DisjInside_TETrace ----
EXTENDS TLC, DisjInside

trace == 
    <<
    ([x |-> 0,y |-> 0]),
    ([x |-> 1,y |-> 1]),
    ([x |-> 2,y |-> 2]),
    ([x |-> 3,y |-> -1])
    >>
----


=============================================================================

---- CONFIG DisjInside_TTrace_1796010023 ----

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
\* Generated on Mon Nov 30 03:40:24 UTC 2026