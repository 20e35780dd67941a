------------------------------- MODULE TLCExt -------------------------------
(* specula's text of TLC's module TLCExt.  AssertEq, AssertError,           *)
(* TLCGetAndSet, TLCModelValue, TLCFP, Trace, CounterExample and ToTrace    *)
(* are native (Trace and CounterExample read the search, as TLC's do).      *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences

\* a = b, printing both values when they differ
AssertEq(a, b) == a = b
\* TRUE unless exp fails with a message other than err
AssertError(err, exp) == TRUE
\* the register key's value (defaultVal when unset); sets it to Op(that value, val)
TLCGetAndSet(key, Op(_, _), val, defaultVal) == defaultVal
\* the states of the behaviour from an initial state to the current one, as records
Trace == << >>
\* in POSTCONDITION: the error trace as a graph [action |-> edges, state |-> <<i, record>>s,
\* invariant |-> {violated property's name}] (empty sets when there is no violation)
CounterExample == [action |-> {}, state |-> {}, invariant |-> {"default"}]
\* the states of a CounterExample as a sequence
ToTrace(CE) == << >>
\* the model value named str
TLCModelValue(str) == CHOOSE v : ToString(v) = str
TLCDefer(expression) == TRUE
TLCNoOp(val) == val
PickSuccessor(exp) == IF exp THEN TRUE ELSE CHOOSE b \in BOOLEAN : TRUE
TLCCache(expression, closure) == expression
TLCFP(var) == CHOOSE i \in Int : TRUE
=============================================================================
