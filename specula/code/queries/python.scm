; Python tags for the specula code index (see go.scm for the capture convention).

; ---- definitions
(function_definition name: (identifier) @name.definition.function) @definition.function
(class_definition name: (identifier) @name.definition.class) @definition.class
(assignment left: (identifier) @name.definition.variable type: (_)? @type) @definition.variable
(assignment
  left: (attribute object: (identifier) @base attribute: (identifier) @name.definition.field)
  (#eq? @base "self")
  type: (_)? @type) @definition.field
(assignment left: (pattern_list (identifier) @name.definition.variable)) @definition.variable
(assignment
  left: (pattern_list (attribute object: (identifier) @base attribute: (identifier) @name.definition.field))
  (#eq? @base "self")) @definition.field

; ---- references
(call
  function: [(identifier) @name.reference.call
             (attribute object: (_) @receiver attribute: (identifier) @name.reference.call)]) @reference.call

; ---- writes
(assignment
  left: [(identifier) @name.reference.write
         (attribute object: (_) @base attribute: (identifier) @name.reference.write)
         (subscript value: [(identifier) @name.reference.write
                            (attribute object: (_) @base attribute: (identifier) @name.reference.write)])]) @reference.write
(assignment
  left: (pattern_list
    [(identifier) @name.reference.write
     (attribute object: (_) @base attribute: (identifier) @name.reference.write)])) @reference.write
(augmented_assignment
  left: [(identifier) @name.reference.write
         (attribute object: (_) @base attribute: (identifier) @name.reference.write)
         (subscript value: [(identifier) @name.reference.write
                            (attribute object: (_) @base attribute: (identifier) @name.reference.write)])]) @reference.write

(call
  function: (attribute
    object: [(identifier) @name.reference.mutate
             (attribute object: (_) @base attribute: (identifier) @name.reference.mutate)]
    attribute: (identifier) @method)) @reference.mutate
