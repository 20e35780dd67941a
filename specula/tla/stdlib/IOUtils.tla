------------------------------- MODULE IOUtils ------------------------------
(* specula's text of the community module IOUtils; reading and writing files *)
(* and the environment are native.  IOExec and its variants run processes:   *)
(* specula runs them only when the checker is started with                   *)
(* SPECULA_ALLOW_IOEXEC=1 in its environment (an error otherwise).           *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences
LOCAL INSTANCE SequencesExt

IOSerialize(val, absoluteFilename, compress) == TRUE
IODeserialize(absoluteFilename, compressed) == CHOOSE v : TRUE
Serialize(value, dest, options) == [exitValue |-> 0, stderr |-> "", stdout |-> ""]
Deserialize(src, options) == CHOOSE v : TRUE
IOExec(command) == [exitValue |-> 0, stderr |-> "", stdout |-> ""]
IOEnvExec(env, command) == IOExec(command)
IOExecTemplate(commandTemplate, parameters) == IOExec(commandTemplate)
IOEnvExecTemplate(env, commandTemplate, parameters) == IOExec(commandTemplate)
IOEnv == CHOOSE r \in [STRING -> STRING] : TRUE
atoi(str) == CHOOSE i \in Int : ToString(i) = str
\* n written with at least width digits (zeros in front)
zeroPadN(n, width) ==
  LET s == ToString(n)
  IN FoldLeft(LAMBDA acc, z : acc \o z, "", [i \in 1 .. (width - Len(s)) |-> "0"]) \o s
=============================================================================
