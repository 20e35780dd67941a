---- MODULE ActionPropFail_TTrace_1796009999 ----
EXTENDS Sequences, TLCExt, ActionPropFail, Toolbox, Naturals, TLC

_expression ==
    LET ActionPropFail_TEExpression == INSTANCE ActionPropFail_TEExpression
    IN ActionPropFail_TEExpression!expression
----

_trace ==
    LET ActionPropFail_TETrace == INSTANCE ActionPropFail_TETrace
    IN ActionPropFail_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        x = (0)
    )
----

_init ==
    /\ x = _TETrace[1].x
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ x  = _TETrace[i].x
        /\ x' = _TETrace[j].x

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("ActionPropFail_TTrace_1796009999.json", _TETrace)

=============================================================================

 Note that you can extract this module `ActionPropFail_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `ActionPropFail_TEExpression.tla` file takes precedence 
  over the module `ActionPropFail_TEExpression` below).

---- MODULE ActionPropFail_TEExpression ----
EXTENDS Sequences, TLCExt, ActionPropFail, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `ActionPropFail` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        x |-> x
        
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
\*---- MODULE ActionPropFail_TETrace ----
\*EXTENDS IOUtils, ActionPropFail, TLC
\*
\*trace == IODeserialize("ActionPropFail_TTrace_1796009999.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE ActionPropFail_TETrace ----
EXTENDS ActionPropFail, TLC

trace == 
    <<
    ([x |-> 0]),
    ([x |-> 1]),
    ([x |-> 2]),
    ([x |-> 3]),
    ([x |-> 0])
    >>
----


=============================================================================

---- CONFIG ActionPropFail_TTrace_1796009999 ----

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
\* Generated on Mon Nov 30 03:40:00 UTC 2026