; Go tags for the specula code index (aider-style: definitions and references).
; Capture convention: @definition.KIND on the whole node, @name.definition.KIND on its name;
; @reference.KIND / @name.reference.KIND for uses. Extra captures: @receiver, @type, @base, @method.

; ---- definitions
(function_declaration name: (identifier) @name.definition.function) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (pointer_type (type_identifier) @receiver)
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name.definition.method) @definition.method

(type_spec name: (type_identifier) @name.definition.struct type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) @definition.interface
(type_spec
  name: (type_identifier) @name.definition.type
  type: [(type_identifier) (qualified_type) (map_type) (slice_type) (array_type) (pointer_type)
         (function_type) (channel_type) (generic_type)]) @definition.type
(type_alias name: (type_identifier) @name.definition.type) @definition.type

(field_declaration name: (field_identifier) @name.definition.field type: (_) @type) @definition.field
; embedded fields are named by their type
(field_declaration
  !name
  type: [(type_identifier) @name.definition.field
         (pointer_type (type_identifier) @name.definition.field)
         (qualified_type name: (type_identifier) @name.definition.field)
         (generic_type type: (type_identifier) @name.definition.field)] @type) @definition.field
(method_elem name: (field_identifier) @name.definition.function) @definition.function

(var_spec name: (identifier) @name.definition.variable type: (_)? @type) @definition.variable
(const_spec name: (identifier) @name.definition.constant type: (_)? @type) @definition.constant
(short_var_declaration left: (expression_list (identifier) @name.definition.variable)) @definition.variable
(range_clause left: (expression_list (identifier) @name.definition.variable)) @definition.variable

; ---- references: calls and function values
(call_expression
  function: [(identifier) @name.reference.call
             (selector_expression operand: (_) @receiver field: (field_identifier) @name.reference.call)
             (generic_type type: (type_identifier) @name.reference.call)]) @reference.call

(assignment_statement right: (expression_list (identifier) @name.reference.ref)) @reference.ref
(keyed_element (literal_element (identifier)) (literal_element (identifier) @name.reference.ref)) @reference.ref

; ---- writes: assignments, ++/--, delete(m, k), mutating method calls
(assignment_statement
  left: (expression_list
    [(identifier) @name.reference.write
     (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)
     (index_expression operand: [(identifier) @name.reference.write
                                 (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)])])) @reference.write

(inc_statement
  [(identifier) @name.reference.write
   (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)]) @reference.write
(dec_statement
  [(identifier) @name.reference.write
   (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)]) @reference.write

(send_statement
  channel: [(identifier) @name.reference.write
            (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)]) @reference.write

(call_expression
  function: (identifier) @method (#eq? @method "delete")
  arguments: (argument_list .
    [(identifier) @name.reference.write
     (selector_expression operand: (_) @base field: (field_identifier) @name.reference.write)])) @reference.write

(call_expression
  function: (selector_expression
    operand: [(identifier) @name.reference.mutate
              (selector_expression operand: (_) @base field: (field_identifier) @name.reference.mutate)]
    field: (field_identifier) @method)) @reference.mutate
