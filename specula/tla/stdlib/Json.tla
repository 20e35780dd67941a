-------------------------------- MODULE Json --------------------------------
(* specula's text of the Json module; serialization is native. *)
LOCAL INSTANCE Sequences
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE TLC

ToJson(value) == ToString(value)
ToJsonArray(value) == ToString(value)
ToJsonObject(value) == ToString(value)
JsonSerialize(absoluteFilename, value) == TRUE
JsonDeserialize(absoluteFilename) == CHOOSE v : TRUE
ndJsonSerialize(absoluteFilename, value) == TRUE
ndJsonDeserialize(absoluteFilename) == CHOOSE v : TRUE
=============================================================================
