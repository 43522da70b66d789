//! The walk over the translation unit that builds the [`Program`]: C block scopes, tags,
//! typedefs, and the declaration each identifier resolves to.

use std::collections::{HashMap, HashSet};

use lang_c::ast::*;
use lang_c::span::Node;

use super::declarator::*;
use super::{
    span_of, Binding, Function, Item, LocalFunction, Program, Shape, Storage, TypeClass, Use, Var,
};
use crate::diag::Span;

#[derive(Clone, Copy)]
enum Entry {
    Var(usize),
    Typedef(TypeClass, bool),
    LocalConstant(Span),
    Other,
}

struct Walker<'a> {
    program: Program<'a>,
    scopes: Vec<HashMap<String, Entry>>,
    /// tags declared in each scope (true = inside a function)
    tag_scopes: Vec<Vec<String>>,
    function: Option<usize>,
    /// end of the innermost block, for the scope of declarations
    block_end: Vec<usize>,
    /// collects the uses inside a type while one is being walked
    type_uses: Option<Vec<Use>>,
    parents: Vec<Span>,
    /// typedef names of `_Atomic` types (`atomic_int` ...)
    atomic_typedefs: HashSet<String>,
}

/// Analyse a translation unit. `is_system(offset)` tells whether a position is in a system header.
pub fn analyse<'a>(unit: &'a TranslationUnit, is_system: &dyn Fn(usize) -> bool) -> Program<'a> {
    let mut w = Walker {
        program: Program::default(),
        scopes: vec![HashMap::new()],
        tag_scopes: vec![Vec::new()],
        function: None,
        block_end: vec![usize::MAX],
        type_uses: None,
        parents: Vec::new(),
        atomic_typedefs: HashSet::new(),
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => w.declaration(d, false),
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => w.function_definition(f, is_system),
        }
    }
    w.program.uses.sort_by_key(|u| u.span.start);
    // in source order already (a pre-order walk); stable, so an outer item stays first on ties
    w.program.items.sort_by_key(|i| i.span.start);
    w.program
}

impl<'a> Walker<'a> {
    fn lookup(&self, name: &str) -> Option<Entry> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn bind(&mut self, name: &str, entry: Entry) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), entry);
        }
    }

    fn push_scope(&mut self, end: usize) {
        self.scopes.push(HashMap::new());
        self.tag_scopes.push(Vec::new());
        self.block_end.push(end);
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tag_scopes.pop();
        self.block_end.pop();
    }

    fn in_function(&self) -> bool {
        self.function.is_some()
    }

    fn record_use(&mut self, name: &str, span: Span) {
        let binding = match self.lookup(name) {
            Some(Entry::Var(i)) => Binding::Var(i),
            Some(Entry::LocalConstant(at)) => Binding::LocalConstant(at),
            _ => Binding::Other,
        };
        let u = Use {
            name: name.to_string(),
            span,
            binding,
        };
        if let Some(buffer) = self.type_uses.as_mut() {
            buffer.push(u.clone());
        }
        self.program.uses.push(u);
    }

    fn function_definition(
        &mut self,
        f: &'a Node<FunctionDefinition>,
        is_system: &dyn Fn(usize) -> bool,
    ) {
        let def = &f.node;
        let name = declarator_name(&def.declarator.node);
        let returns_void = def.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
        }) && def.declarator.node.derived.len() == 1;
        let params = function_params(&def.declarator.node);
        let kr_count = kr_identifiers(&def.declarator.node).len();
        let parameter_count = kr_count + params.map_or(0, |p| {
            let void_only = p.len() == 1
                && p.first().is_some_and(|p| {
                    p.node.declarator.is_none()
                        && p.node.specifiers.iter().any(|s| {
                            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
                        })
                });
            if void_only {
                0
            } else {
                p.len()
            }
        });
        if let Some((n, s)) = &name {
            self.program.function_names.push((n.clone(), *s));
            self.bind(n, Entry::Other);
        }
        let index = self.program.functions.len();
        self.program.functions.push(Function {
            name: name.as_ref().map(|n| n.0.clone()).unwrap_or_default(),
            name_span: name.as_ref().map_or(span_of(f.span), |n| n.1),
            span: span_of(f.span),
            body: span_of(def.statement.span),
            parameter_count,
            returns_void,
            is_system: is_system(f.span.start),
        });
        self.program.function_bodies.push(&def.statement);
        self.function = Some(index);
        self.push_scope(def.statement.span.end);
        self.parents.push(span_of(def.statement.span));
        // specifiers may define tags; walk them for uses in typeof
        let spec_class = self.specifiers_class(&def.specifiers);
        let _ = spec_class;
        if let Some(params) = params {
            for p in params {
                self.parameter(p, def.statement.span.end);
            }
        }
        for d in &def.declarations {
            self.declaration(d, true);
        }
        // a K&R parameter left out of the declaration list is an `int` (C90)
        for ident in kr_identifiers(&def.declarator.node) {
            let name = &ident.node.name;
            let declared = self
                .scopes
                .last()
                .is_some_and(|scope| scope.contains_key(name));
            if !declared {
                self.implicit_int_parameter(name, span_of(ident.span), def.statement.span.end);
            }
        }
        // the body's braces do not open a new scope beyond the parameters' (C 6.2.1)
        if let Statement::Compound(items) = &def.statement.node {
            for item in items {
                self.block_item(item);
            }
        } else {
            self.statement(&def.statement);
        }
        self.parents.pop();
        self.pop_scope();
        self.function = None;
    }

    fn parameter(&mut self, p: &'a Node<ParameterDeclaration>, scope_end: usize) {
        let Some(decl) = &p.node.declarator else {
            return;
        };
        // a parameter of a definition is a local too: regions take its address
        for spec in &p.node.specifiers {
            if let DeclarationSpecifier::StorageClass(c) = &spec.node {
                if c.node == StorageClassSpecifier::Register {
                    self.program.register_specifiers.push(span_of(spec.span));
                }
            }
        }
        self.type_uses = Some(Vec::new());
        let (class, is_const, local_type) = self.specifiers_info(&p.node.specifiers);
        self.declarator_uses(&decl.node);
        let type_uses = self.type_uses.take().unwrap_or_default();
        let Some((name, ident_span)) = declarator_name(&decl.node) else {
            return;
        };
        let class = derive_class(class, &decl.node, true);
        let shape = Shape {
            steps: derivation_steps(&decl.node, true),
            opaque_base: self.opaque_base(&p.node.specifiers),
        };
        let param_array_dim = param_array_dim(&decl.node);
        let is_atomic = self.is_atomic(&p.node.specifiers) && class != TypeClass::Pointer;
        let var = Var {
            name: name.clone(),
            ident_span,
            storage: Storage::Param,
            class,
            is_const: is_const && !has_pointer(&decl.node),
            scope: Span::new(ident_span.end, scope_end),
            type_specifiers: type_specifier_spans(&p.node.specifiers),
            declarator: span_of(decl.span),
            param_array_dim,
            type_uses,
            local_type,
            function: self.function,
            is_atomic,
            shape,
            thread_local: false,
            address_taken: false,
        };
        let index = self.program.vars.len();
        self.program.vars.push(var);
        self.bind(&name, Entry::Var(index));
    }

    /// `&name`: marks the variable (a pointer whose address is taken may change behind its name).
    fn address_taken(&mut self, operand: &Expression) {
        let Expression::Identifier(i) = operand else {
            return;
        };
        if let Some(Entry::Var(v)) = self.lookup(&i.node.name) {
            if let Some(var) = self.program.vars.get_mut(v) {
                var.address_taken = true;
            }
        }
    }

    /// Whether the specifiers name a type whose derivations they hide: a typedef of anything but
    /// an arithmetic or record type, `__typeof__`, `_Atomic(T)`.
    fn opaque_base(&self, specs: &[Node<DeclarationSpecifier>]) -> bool {
        specs.iter().any(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => self.hides_derivations(&t.node),
            _ => false,
        })
    }

    fn hides_derivations(&self, t: &TypeSpecifier) -> bool {
        match t {
            TypeSpecifier::TypedefName(name) => !matches!(
                self.lookup(&name.node.name),
                Some(Entry::Typedef(
                    TypeClass::Integer
                        | TypeClass::Floating
                        | TypeClass::OtherArithmetic
                        | TypeClass::Record,
                    _
                ))
            ),
            TypeSpecifier::TypeOf(_) | TypeSpecifier::Atomic(_) => true,
            _ => false,
        }
    }

    /// Whether declaration specifiers make an `_Atomic` type.
    fn is_atomic(&self, specs: &[Node<DeclarationSpecifier>]) -> bool {
        specs.iter().any(|s| match &s.node {
            DeclarationSpecifier::TypeQualifier(q) => q.node == TypeQualifier::Atomic,
            DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::Atomic(_) => true,
                TypeSpecifier::TypedefName(name) => self.atomic_typedefs.contains(&name.node.name),
                _ => false,
            },
            _ => false,
        })
    }

    fn implicit_int_parameter(&mut self, name: &str, ident_span: Span, scope_end: usize) {
        let index = self.program.vars.len();
        self.program.vars.push(Var {
            name: name.to_string(),
            ident_span,
            storage: Storage::Param,
            class: TypeClass::Integer,
            is_const: false,
            scope: Span::new(ident_span.end, scope_end),
            // no specifiers: the type is spelled `int` where it is rebuilt
            type_specifiers: Vec::new(),
            declarator: ident_span,
            param_array_dim: None,
            type_uses: Vec::new(),
            local_type: None,
            function: self.function,
            is_atomic: false,
            shape: Shape::default(),
            thread_local: false,
            address_taken: false,
        });
        self.bind(name, Entry::Var(index));
    }

    /// Class, const-ness and any function-local type used by a specifier list; walks typeof operands.
    fn specifiers_info(
        &mut self,
        specs: &'a [Node<DeclarationSpecifier>],
    ) -> (TypeClass, bool, Option<Span>) {
        let class = self.specifiers_class(specs);
        let is_const = specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
        });
        let local_type = specs.iter().find_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => self.local_type_of(t),
            _ => None,
        });
        (class.0, is_const || class.1, local_type)
    }

    fn local_type_of(&self, t: &Node<TypeSpecifier>) -> Option<Span> {
        match &t.node {
            TypeSpecifier::TypedefName(name) => match self.lookup(&name.node.name) {
                Some(Entry::Typedef(_, true)) => Some(span_of(t.span)),
                _ => None,
            },
            TypeSpecifier::Struct(s) => {
                let declared_here = s.node.declarations.is_some();
                let local_tag = self.is_local_tag(s.node.identifier.as_ref());
                (self.in_function() && (declared_here || local_tag)).then(|| span_of(t.span))
            }
            TypeSpecifier::Enum(e) => {
                let declared_here = !e.node.enumerators.is_empty();
                let local_tag = self.is_local_tag(e.node.identifier.as_ref());
                (self.in_function() && (declared_here || local_tag)).then(|| span_of(t.span))
            }
            _ => None,
        }
    }

    /// Whether struct/union/enum `tag` is declared in a block scope (not at file scope).
    fn is_local_tag(&self, tag: Option<&Node<Identifier>>) -> bool {
        tag.is_some_and(|tag| {
            self.tag_scopes
                .iter()
                .skip(1)
                .any(|scope| scope.contains(&tag.node.name))
        })
    }

    /// Returns (class, const from a typedef).
    fn specifiers_class(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> (TypeClass, bool) {
        let mut class = None;
        let mut floating = false;
        let mut complex = false;
        let mut typedef_const = false;
        for s in specs {
            if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
                match &t.node {
                    TypeSpecifier::Void => class = Some(TypeClass::Unknown),
                    TypeSpecifier::Float
                    | TypeSpecifier::Double
                    | TypeSpecifier::TS18661Float(_) => floating = true,
                    TypeSpecifier::Complex => complex = true,
                    TypeSpecifier::Char
                    | TypeSpecifier::Short
                    | TypeSpecifier::Int
                    | TypeSpecifier::Long
                    | TypeSpecifier::Signed
                    | TypeSpecifier::Unsigned
                    | TypeSpecifier::Bool => {}
                    TypeSpecifier::Atomic(_) => class = Some(TypeClass::Unknown),
                    TypeSpecifier::Struct(st) => {
                        self.struct_type(st);
                        class = Some(TypeClass::Record)
                    }
                    TypeSpecifier::Enum(e) => {
                        self.enum_type(e);
                        class = Some(TypeClass::Integer)
                    }
                    TypeSpecifier::TypedefName(name) => {
                        class = Some(match self.lookup(&name.node.name) {
                            Some(Entry::Typedef(c, _)) => c,
                            _ => TypeClass::Unknown,
                        })
                    }
                    TypeSpecifier::TypeOf(t) => {
                        match &t.node {
                            TypeOf::Expression(e) => self.expression(e),
                            TypeOf::Type(tn) => self.type_name(tn),
                        }
                        class = Some(TypeClass::Unknown)
                    }
                }
            }
        }
        let class = class.unwrap_or(if complex {
            TypeClass::OtherArithmetic
        } else if floating {
            TypeClass::Floating
        } else {
            TypeClass::Integer
        });
        if let Some(Entry::Typedef(_, _)) = None::<Entry> {
            typedef_const = true;
        }
        (class, typedef_const)
    }

    /// Records a struct or union member's shape under its name (`None` when members of that
    /// name differ).
    fn member(&mut self, d: &Declarator, opaque_base: bool) {
        let Some((name, _)) = declarator_name(d) else {
            return;
        };
        let shape = Shape {
            steps: derivation_steps(d, false),
            opaque_base,
        };
        self.program
            .members
            .entry(name)
            .and_modify(|known| {
                if known.as_ref() != Some(&shape) {
                    *known = None;
                }
            })
            .or_insert(Some(shape.clone()));
    }

    fn struct_type(&mut self, st: &'a Node<StructType>) {
        if let Some(tag) = &st.node.identifier {
            if st.node.declarations.is_some() {
                if let Some(scope) = self.tag_scopes.last_mut() {
                    scope.push(tag.node.name.clone());
                }
            }
        }
        for d in st.node.declarations.iter().flatten() {
            if let StructDeclaration::Field(f) = &d.node {
                for s in &f.node.specifiers {
                    if let SpecifierQualifier::TypeSpecifier(t) = &s.node {
                        match &t.node {
                            TypeSpecifier::Struct(inner) => self.struct_type(inner),
                            TypeSpecifier::Enum(e) => self.enum_type(e),
                            TypeSpecifier::TypeOf(t) => match &t.node {
                                TypeOf::Expression(e) => self.expression(e),
                                TypeOf::Type(tn) => self.type_name(tn),
                            },
                            _ => {}
                        }
                    }
                }
                let opaque_base = f.node.specifiers.iter().any(|s| {
                    matches!(&s.node, SpecifierQualifier::TypeSpecifier(t) if self.hides_derivations(&t.node))
                });
                for d in &f.node.declarators {
                    if let Some(decl) = &d.node.declarator {
                        self.declarator_uses(&decl.node);
                        self.member(&decl.node, opaque_base);
                    }
                    if let Some(w) = &d.node.bit_width {
                        self.expression(w);
                    }
                }
            }
        }
    }

    fn enum_type(&mut self, e: &'a Node<EnumType>) {
        if let Some(tag) = &e.node.identifier {
            if !e.node.enumerators.is_empty() {
                if let Some(scope) = self.tag_scopes.last_mut() {
                    scope.push(tag.node.name.clone());
                }
            }
        }
        let entry = if self.in_function() {
            Entry::LocalConstant(span_of(e.span))
        } else {
            Entry::Other
        };
        for en in &e.node.enumerators {
            if let Some(x) = &en.node.expression {
                self.expression(x);
            }
            self.bind(&en.node.identifier.node.name, entry);
        }
    }

    /// `kr_parameters`: the declaration list of a K&R function definition (its declarators are
    /// the parameters).
    fn declaration(&mut self, d: &'a Node<Declaration>, kr_parameters: bool) {
        let specs = &d.node.specifiers;
        let storage = specs.iter().find_map(|s| match &s.node {
            DeclarationSpecifier::StorageClass(c) => Some(c.node.clone()),
            _ => None,
        });
        for spec in specs {
            if let DeclarationSpecifier::StorageClass(c) = &spec.node {
                if c.node == StorageClassSpecifier::Register && self.in_function() {
                    self.program.register_specifiers.push(span_of(spec.span));
                }
            }
        }
        let thread_local = specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::ThreadLocal)
        });
        self.type_uses = Some(Vec::new());
        let (class, is_const, local_type) = self.specifiers_info(specs);
        let spec_uses = self.type_uses.take().unwrap_or_default();
        for init in &d.node.declarators {
            let decl = &init.node.declarator;
            self.type_uses = Some(spec_uses.clone());
            self.declarator_uses(&decl.node);
            let type_uses = self.type_uses.take().unwrap_or_default();
            let Some((name, ident_span)) = declarator_name(&decl.node) else {
                continue;
            };
            let full_class = derive_class(class, &decl.node, kr_parameters);
            let is_function = matches!(full_class, TypeClass::Function);
            let is_atomic = self.is_atomic(specs)
                && !matches!(full_class, TypeClass::Pointer | TypeClass::Function);
            if storage == Some(StorageClassSpecifier::Typedef) {
                if is_atomic {
                    self.atomic_typedefs.insert(name.clone());
                }
                self.bind(&name, Entry::Typedef(full_class, self.in_function()));
                continue;
            }
            if is_function {
                self.program.function_names.push((name.clone(), ident_span));
                self.bind(&name, Entry::Other);
                if let (true, Some(first), Some(last)) =
                    (self.in_function(), specs.first(), specs.last())
                {
                    let scope_end = self.block_end.last().copied().unwrap_or(usize::MAX);
                    self.program.local_functions.push(LocalFunction {
                        name: name.clone(),
                        specifiers: Span::new(first.span.start, last.span.end),
                        declarator: span_of(decl.span),
                        scope: Span::new(ident_span.end, scope_end),
                    });
                }
                continue;
            }
            let var_storage = if kr_parameters {
                Storage::Param
            } else if !self.in_function() {
                Storage::Global
            } else {
                match storage {
                    Some(StorageClassSpecifier::Static)
                    | Some(StorageClassSpecifier::ThreadLocal) => Storage::Static,
                    Some(StorageClassSpecifier::Extern) => Storage::Extern,
                    _ => Storage::Auto,
                }
            };
            let scope_end = self.block_end.last().copied().unwrap_or(usize::MAX);
            let var = Var {
                name: name.clone(),
                ident_span,
                storage: var_storage,
                class: full_class,
                is_const: is_const && !has_pointer(&decl.node),
                scope: Span::new(ident_span.end, scope_end),
                type_specifiers: type_specifier_spans(specs),
                declarator: span_of(decl.span),
                param_array_dim: if kr_parameters {
                    param_array_dim(&decl.node)
                } else {
                    None
                },
                type_uses,
                local_type,
                function: self.function,
                is_atomic,
                shape: Shape {
                    steps: derivation_steps(&decl.node, kr_parameters),
                    opaque_base: self.opaque_base(specs),
                },
                thread_local,
                address_taken: false,
            };
            let index = self.program.vars.len();
            self.program.vars.push(var);
            self.bind(&name, Entry::Var(index));
            if let Some(i) = &init.node.initializer {
                self.initializer(i);
            }
        }
    }

    fn initializer(&mut self, i: &'a Node<Initializer>) {
        match &i.node {
            Initializer::Expression(e) => self.expression(e),
            Initializer::List(items) => {
                for item in items {
                    for d in &item.node.designation {
                        match &d.node {
                            Designator::Index(e) => self.expression(e),
                            Designator::Range(r) => {
                                self.expression(&r.node.from);
                                self.expression(&r.node.to);
                            }
                            Designator::Member(_) => {}
                        }
                    }
                    self.initializer(&item.node.initializer);
                }
            }
        }
    }

    /// Uses inside a declarator: array sizes (and parameter lists of function declarators).
    fn declarator_uses(&mut self, d: &'a Declarator) {
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            self.declarator_uses(&inner.node);
        }
        for derived in &d.derived {
            match &derived.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        self.expression(e)
                    }
                    _ => {}
                },
                DerivedDeclarator::Function(_) => {}
                _ => {}
            }
        }
    }

    fn type_name(&mut self, t: &'a Node<TypeName>) {
        for s in &t.node.specifiers {
            if let SpecifierQualifier::TypeSpecifier(ts) = &s.node {
                match &ts.node {
                    TypeSpecifier::Struct(st) => self.struct_type(st),
                    TypeSpecifier::Enum(e) => self.enum_type(e),
                    TypeSpecifier::TypeOf(t) => match &t.node {
                        TypeOf::Expression(e) => self.expression(e),
                        TypeOf::Type(tn) => self.type_name(tn),
                    },
                    _ => {}
                }
            }
        }
        if let Some(d) = &t.node.declarator {
            self.declarator_uses(&d.node);
        }
    }

    fn block_item(&mut self, item: &'a Node<BlockItem>) {
        let parent = self.parents.last().copied().unwrap_or(Span::new(0, 0));
        match &item.node {
            BlockItem::Declaration(d) => {
                self.program.items.push(Item {
                    span: span_of(item.span),
                    parent,
                    statement: None,
                });
                self.declaration(d, false);
            }
            BlockItem::StaticAssert(_) => {}
            BlockItem::Statement(s) => self.statement(s),
        }
    }

    fn statement(&mut self, s: &'a Node<Statement>) {
        let parent = self.parents.last().copied().unwrap_or(Span::new(0, 0));
        self.program.items.push(Item {
            span: span_of(s.span),
            parent,
            statement: Some(s),
        });
        self.parents.push(span_of(s.span));
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Case(e) = &l.node.label.node {
                    self.expression(e);
                }
                self.statement(&l.node.statement);
            }
            Statement::Compound(items) => {
                self.push_scope(s.span.end);
                for item in items {
                    self.block_item(item);
                }
                self.pop_scope();
            }
            Statement::Expression(Some(e)) => self.expression(e),
            Statement::If(i) => {
                self.expression(&i.node.condition);
                self.statement(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.statement(e);
                }
            }
            Statement::Switch(sw) => {
                self.expression(&sw.node.expression);
                self.statement(&sw.node.statement);
            }
            Statement::While(w) => {
                self.expression(&w.node.expression);
                self.statement(&w.node.statement);
            }
            Statement::DoWhile(d) => {
                self.statement(&d.node.statement);
                self.expression(&d.node.expression);
            }
            Statement::For(f) => {
                self.push_scope(s.span.end);
                match &f.node.initializer.node {
                    ForInitializer::Expression(e) => self.expression(e),
                    ForInitializer::Declaration(d) => self.declaration(d, false),
                    _ => {}
                }
                if let Some(c) = &f.node.condition {
                    self.expression(c);
                }
                if let Some(c) = &f.node.step {
                    self.expression(c);
                }
                self.statement(&f.node.statement);
                self.pop_scope();
            }
            Statement::Return(Some(e)) => self.expression(e),
            Statement::Asm(a) => {
                if let AsmStatement::GnuExtended(g) = &a.node {
                    for op in g.outputs.iter().chain(g.inputs.iter()) {
                        self.expression(&op.node.variable_name);
                    }
                }
            }
            _ => {}
        }
        self.parents.pop();
    }

    fn expression(&mut self, e: &'a Node<Expression>) {
        match &e.node {
            Expression::Identifier(i) => self.record_use(&i.node.name, span_of(i.span)),
            Expression::Constant(_) | Expression::StringLiteral(_) => {}
            Expression::GenericSelection(g) => {
                self.expression(&g.node.expression);
                for a in &g.node.associations {
                    match &a.node {
                        GenericAssociation::Type(t) => {
                            self.type_name(&t.node.type_name);
                            self.expression(&t.node.expression);
                        }
                        GenericAssociation::Default(x) => self.expression(x),
                    }
                }
            }
            Expression::Member(m) => self.expression(&m.node.expression),
            Expression::Call(c) => {
                self.expression(&c.node.callee);
                for a in &c.node.arguments {
                    self.expression(a);
                }
            }
            Expression::CompoundLiteral(c) => {
                self.type_name(&c.node.type_name);
                for item in &c.node.initializer_list {
                    self.initializer(&item.node.initializer);
                }
            }
            Expression::SizeOfTy(t) => self.type_name(&t.node.0),
            Expression::SizeOfVal(v) => self.expression(&v.node.0),
            Expression::AlignOf(t) => self.type_name(&t.node.0),
            Expression::UnaryOperator(u) => {
                self.expression(&u.node.operand);
                if u.node.operator.node == UnaryOperator::Address {
                    self.address_taken(&u.node.operand.node);
                }
            }
            Expression::Cast(c) => {
                self.type_name(&c.node.type_name);
                self.expression(&c.node.expression);
            }
            Expression::BinaryOperator(b) => {
                self.expression(&b.node.lhs);
                self.expression(&b.node.rhs);
            }
            Expression::Conditional(c) => {
                self.expression(&c.node.condition);
                self.expression(&c.node.then_expression);
                self.expression(&c.node.else_expression);
            }
            Expression::Comma(list) => {
                for x in list.iter() {
                    self.expression(x);
                }
            }
            Expression::OffsetOf(o) => {
                self.type_name(&o.node.type_name);
                for m in &o.node.designator.node.members {
                    if let OffsetMember::Index(x) = &m.node {
                        self.expression(x);
                    }
                }
            }
            Expression::VaArg(v) => {
                self.expression(&v.node.va_list);
                self.type_name(&v.node.type_name);
            }
            Expression::Statement(s) => self.statement(s),
        }
    }
}
