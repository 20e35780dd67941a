------------------------------- MODULE TLCExt -------------------------------
(* specula's text of TLCExt (TLC's extension module); native in the engine. *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences

AssertEq(a, b) == a = b
AssertError(err, exp) == TRUE
TLCGetAndSet(key, Op(_, _), val, defaultVal) == defaultVal
Trace == << >>
CounterExample == [ state |-> {}, action |-> {} ]
ToTrace(CE) == << >>
TLCModelValue(str) == CHOOSE v : TRUE
TLCDefer(expression) == TRUE
TLCNoOp(val) == val
PickSuccessor(exp) == TRUE
TLCCache(expression, closure) == expression
TLCFP(var) == CHOOSE n \in Int : TRUE
=============================================================================
