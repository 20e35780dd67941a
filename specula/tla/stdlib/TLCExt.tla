------------------------------- MODULE TLCExt -------------------------------
(* specula's text of TLC's module TLCExt.  AssertEq, AssertError,           *)
(* TLCGetAndSet, TLCModelValue and TLCFP are native; Trace, CounterExample  *)
(* and ToTrace are not available in specula (they read TLC's search).      *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences

\* a = b, printing both values when they differ
AssertEq(a, b) == a = b
\* TRUE unless exp fails with a message other than err
AssertError(err, exp) == TRUE
\* the register key's value (defaultVal when unset); sets it to Op(that value, val)
TLCGetAndSet(key, Op(_, _), val, defaultVal) == defaultVal
Trace == << >>
CounterExample == [state |-> {}, action |-> {}]
ToTrace(CE) == << >>
\* the model value named str
TLCModelValue(str) == CHOOSE v : ToString(v) = str
TLCDefer(expression) == TRUE
TLCNoOp(val) == val
PickSuccessor(exp) == IF exp THEN TRUE ELSE CHOOSE b \in BOOLEAN : TRUE
TLCCache(expression, closure) == expression
TLCFP(var) == CHOOSE i \in Int : TRUE
=============================================================================
