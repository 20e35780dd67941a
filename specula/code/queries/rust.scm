; Rust tags for the specula code index (see go.scm for the capture convention).

; ---- definitions
(function_item name: (identifier) @name.definition.function) @definition.function
(function_signature_item name: (identifier) @name.definition.function) @definition.function
(struct_item name: (type_identifier) @name.definition.struct) @definition.struct
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(union_item name: (type_identifier) @name.definition.union) @definition.union
(trait_item name: (type_identifier) @name.definition.trait) @definition.trait
(type_item name: (type_identifier) @name.definition.type) @definition.type
; impl blocks are containers only (their methods get the impl's type as parent)
(impl_item type: (_) @name.definition.impl) @definition.impl
; `#[cfg(test)] mod tests { ... }`: recorded as a test span, dropped unless tests are indexed
(mod_item name: (identifier) @name.definition.testmod body: (declaration_list)) @definition.testmod

(field_declaration name: (field_identifier) @name.definition.field type: (_) @type) @definition.field
(const_item name: (identifier) @name.definition.constant type: (_) @type) @definition.constant
(enum_variant name: (identifier) @name.definition.field) @definition.field
(static_item name: (identifier) @name.definition.variable type: (_) @type) @definition.variable
(let_declaration pattern: (identifier) @name.definition.variable type: (_)? @type) @definition.variable

; ---- references
(call_expression
  function: [(identifier) @name.reference.call
             (field_expression value: (_) @receiver field: (field_identifier) @name.reference.call)
             (scoped_identifier path: (_) @receiver name: (identifier) @name.reference.call)
             (generic_function function: [(identifier) @name.reference.call
                                          (field_expression value: (_) @receiver field: (field_identifier) @name.reference.call)
                                          (scoped_identifier path: (_) @receiver name: (identifier) @name.reference.call)])]) @reference.call

(struct_expression name: (type_identifier) @name.reference.call) @reference.call

; ---- writes
(assignment_expression
  left: [(identifier) @name.reference.write
         (field_expression value: (_) @base field: (field_identifier) @name.reference.write)
         (index_expression . [(identifier) @name.reference.write
                              (field_expression value: (_) @base field: (field_identifier) @name.reference.write)])]) @reference.write
(compound_assignment_expr
  left: [(identifier) @name.reference.write
         (field_expression value: (_) @base field: (field_identifier) @name.reference.write)
         (index_expression . [(identifier) @name.reference.write
                              (field_expression value: (_) @base field: (field_identifier) @name.reference.write)])]) @reference.write

(call_expression
  function: (field_expression
    value: [(identifier) @name.reference.mutate
            (field_expression value: (_) @base field: (field_identifier) @name.reference.mutate)]
    field: (field_identifier) @method)) @reference.mutate
