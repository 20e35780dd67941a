; Java tags for the specula code index (see go.scm for the capture convention).

; ---- definitions
(method_declaration name: (identifier) @name.definition.function) @definition.function
(constructor_declaration name: (identifier) @name.definition.function) @definition.function
(compact_constructor_declaration name: (identifier) @name.definition.function) @definition.function
(class_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(record_declaration name: (identifier) @name.definition.class) @definition.class
(annotation_type_declaration name: (identifier) @name.definition.interface) @definition.interface

(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name.definition.field)) @definition.field
(record_declaration parameters: (formal_parameters
  (formal_parameter type: (_) @type name: (identifier) @name.definition.field) @definition.field))
(constant_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name.definition.field)) @definition.field
(enum_constant name: (identifier) @name.definition.field) @definition.field
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name.definition.variable)) @definition.variable

; ---- references
(method_invocation object: (_)? @receiver name: (identifier) @name.reference.call) @reference.call
(object_creation_expression type: [(type_identifier) @name.reference.call
                                   (generic_type (type_identifier) @name.reference.call)]) @reference.call
(method_reference (_) @receiver . (identifier) @name.reference.ref) @reference.ref

; ---- writes
(assignment_expression
  left: [(identifier) @name.reference.write
         (field_access object: (_) @base field: (identifier) @name.reference.write)
         (array_access array: [(identifier) @name.reference.write
                               (field_access object: (_) @base field: (identifier) @name.reference.write)])]) @reference.write
(update_expression
  [(identifier) @name.reference.write
   (field_access object: (_) @base field: (identifier) @name.reference.write)]) @reference.write

(method_invocation
  object: [(identifier) @name.reference.mutate
           (field_access object: (_) @base field: (identifier) @name.reference.mutate)]
  name: (identifier) @method) @reference.mutate
