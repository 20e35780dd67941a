; C++ tags for the specula code index (see go.scm for the capture convention).
; Declarator names nest, so definitions without a @name capture get their names
; (and, for `Type::method`, their receiver) from the declarator chain in Python.

; ---- definitions
(function_definition) @definition.function
(class_specifier name: (_) @name.definition.class body: (field_declaration_list)) @definition.class
(struct_specifier body: (field_declaration_list)) @definition.struct
(union_specifier body: (field_declaration_list)) @definition.union
(enum_specifier name: (_) @name.definition.enum body: (enumerator_list)) @definition.enum
(type_definition) @definition.type
(alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(field_declaration) @definition.field
(declaration) @definition.variable
(enumerator name: (identifier) @name.definition.field) @definition.field

; ---- references
(call_expression
  function: [(identifier) @name.reference.call
             (field_expression argument: (_) @receiver field: (field_identifier) @name.reference.call)
             (qualified_identifier scope: (_) @receiver name: (identifier) @name.reference.call)
             (qualified_identifier name: (qualified_identifier name: (identifier) @name.reference.call))
             (template_function name: (identifier) @name.reference.call)
             (field_expression argument: (_) @receiver field: (template_method name: (field_identifier) @name.reference.call))]) @reference.call
(assignment_expression right: (identifier) @name.reference.ref) @reference.ref

; ---- writes
(assignment_expression
  left: [(identifier) @name.reference.write
         (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)
         (subscript_expression argument: [(identifier) @name.reference.write
                                          (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)])]) @reference.write
(update_expression
  argument: [(identifier) @name.reference.write
             (field_expression argument: (_) @base field: (field_identifier) @name.reference.write)]) @reference.write

(call_expression
  function: (field_expression
    argument: [(identifier) @name.reference.mutate
               (field_expression argument: (_) @base field: (field_identifier) @name.reference.mutate)]
    field: (field_identifier) @method)) @reference.mutate
