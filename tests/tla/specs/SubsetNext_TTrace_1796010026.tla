---- MODULE SubsetNext_TTrace_1796010026 ----
EXTENDS Sequences, SubsetNext, TLCExt, Toolbox, Naturals, TLC

_expression ==
    LET SubsetNext_TEExpression == INSTANCE SubsetNext_TEExpression
    IN SubsetNext_TEExpression!expression
----

_trace ==
    LET SubsetNext_TETrace == INSTANCE SubsetNext_TETrace
    IN SubsetNext_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        s = ({1, 2, 3})
    )
----

_init ==
    /\ s = _TETrace[1].s
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ s  = _TETrace[i].s
        /\ s' = _TETrace[j].s

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("SubsetNext_TTrace_1796010026.json", _TETrace)

=============================================================================

 Note that you can extract this module `SubsetNext_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `SubsetNext_TEExpression.tla` file takes precedence 
  over the module `SubsetNext_TEExpression` below).

---- MODULE SubsetNext_TEExpression ----
EXTENDS Sequences, SubsetNext, TLCExt, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `SubsetNext` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        s |-> s
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_sUnchanged |-> s = s'
        
        \* Format the `s` variable as Json value.
        \* ,_sJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(s)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_sModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].s # _TETrace[s-1].s
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE SubsetNext_TETrace ----
\*EXTENDS IOUtils, SubsetNext, TLC
\*
\*trace == IODeserialize("SubsetNext_TTrace_1796010026.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE SubsetNext_TETrace ----
EXTENDS SubsetNext, TLC

trace == 
    <<
    ([s |-> {}]),
    ([s |-> {1}]),
    ([s |-> {1, 2}]),
    ([s |-> {1, 2, 3}])
    >>
----


=============================================================================

---- CONFIG SubsetNext_TTrace_1796010026 ----

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
\* Generated on Mon Nov 30 03:40:27 UTC 2026