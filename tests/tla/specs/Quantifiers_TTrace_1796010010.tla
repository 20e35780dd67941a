---- MODULE Quantifiers_TTrace_1796010010 ----
EXTENDS Sequences, TLCExt, Toolbox, Quantifiers, Naturals, TLC

_expression ==
    LET Quantifiers_TEExpression == INSTANCE Quantifiers_TEExpression
    IN Quantifiers_TEExpression!expression
----

_trace ==
    LET Quantifiers_TETrace == INSTANCE Quantifiers_TETrace
    IN Quantifiers_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        f = ()
    )
----

_init ==
    /\ f = _TETrace[1].f
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ f  = _TETrace[i].f
        /\ f' = _TETrace[j].f

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Quantifiers_TTrace_1796010010.json", _TETrace)

=============================================================================

 Note that you can extract this module `Quantifiers_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Quantifiers_TEExpression.tla` file takes precedence 
  over the module `Quantifiers_TEExpression` below).

---- MODULE Quantifiers_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, Quantifiers, Naturals, TLC

expression == 
    [
        \* To hide variables of the `Quantifiers` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        f |-> f
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_fUnchanged |-> f = f'
        
        \* Format the `f` variable as Json value.
        \* ,_fJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(f)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_fModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].f # _TETrace[s-1].f
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Quantifiers_TETrace ----
\*EXTENDS IOUtils, Quantifiers, TLC
\*
\*trace == IODeserialize("Quantifiers_TTrace_1796010010.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Quantifiers_TETrace ----
EXTENDS Quantifiers, TLC

trace == 
    <<
    ([f |-> <<0, 0, 0>>]),
    ([f |-> ])
    >>
----


=============================================================================

---- CONFIG Quantifiers_TTrace_1796010010 ----
CONSTANTS
    S = { 1 , 2 , 3 }

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
\* Generated on Mon Nov 30 03:40:11 UTC 2026