------------------------------- MODULE IOUtils ------------------------------
(* specula's text of the community module IOUtils; I/O is native. *)
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers

IOSerialize(val, absoluteFilename, compress) == TRUE
IODeserialize(absoluteFilename, compressed) == CHOOSE v : TRUE
Serialize(value, dest, options) == [exitValue |-> 0, stdout |-> "", stderr |-> ""]
Deserialize(src, options) == [exitValue |-> 0, stdout |-> "", stderr |-> ""]
IOExec(command) == [exitValue |-> 0, stdout |-> "", stderr |-> ""]
IOEnvExec(env, command) == IOExec(command)
IOExecTemplate(commandTemplate, parameters) == IOExec(commandTemplate)
IOEnvExecTemplate(env, commandTemplate, parameters) == IOExec(commandTemplate)
IOEnv == [n \in {} |-> ""]
atoi(str) == CHOOSE n \in Int : ToString(n) = str
=============================================================================
