------------------------------- MODULE TLCExt -------------------------------
(* specula's text of TLC's module TLCExt.  Every operator is native         *)
(* (specula/tla/natives_tlcext.py); Trace, CounterExample, TLCDefer and     *)
(* TLCEvalDefinition read the search, as TLC's do.                          *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences

\* a = b, printing both values when they differ
AssertEq(a, b) == a = b
\* TRUE unless exp fails with a message other than err
AssertError(err, exp) == TRUE
\* the register key's value (defaultVal when it is unset or key names no register)
TLCGetOrDefault(key, defaultVal) == defaultVal
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
\* TRUE; in simulation, expression is evaluated on the successor the simulator picks
TLCDefer(expression) == TRUE
TLCNoOp(val) == val
PickSuccessor(exp) == IF exp THEN TRUE ELSE CHOOSE b \in BOOLEAN : TRUE
\* expression, evaluated once per value of closure (and per state if it reads the state)
TLCCache(expression, closure) == expression
\* the low 32 bits of TLC's fingerprint of var (with TLC's first polynomial, -fp 0)
TLCFP(var) == CHOOSE i \in Int : TRUE
\* the value of the root module's zero-arity definition named definitionName
TLCEvalDefinition(definitionName) == TRUE
=============================================================================
