; C tags for the specula code index (see go.scm for the capture convention).
; Declarator names nest (pointers, arrays, initialisers), so definitions without a
; @name capture get their names from the declarator chain in Python.

; ---- definitions
(function_definition) @definition.function
(struct_specifier body: (field_declaration_list)) @definition.struct
(union_specifier body: (field_declaration_list)) @definition.union
(enum_specifier body: (enumerator_list)) @definition.enum
(type_definition) @definition.type
(field_declaration) @definition.field
(declaration) @definition.variable
(enumerator name: (identifier) @name.definition.field) @definition.field

; ---- references
(call_expression
  function: [(identifier) @name.reference.call
             (field_expression argument: (_) @receiver field: (field_identifier) @name.reference.call)]) @reference.call
(assignment_expression right: (identifier) @name.reference.ref) @reference.ref
(initializer_pair value: (identifier) @name.reference.ref) @reference.ref

; ---- writes
(assignment_expression
  left: [(identifier) @name.reference.write
         (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)
         (subscript_expression argument: [(identifier) @name.reference.write
                                          (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)])]) @reference.write
(update_expression
  argument: [(identifier) @name.reference.write
             (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)]) @reference.write
