//! Name resolution: every variable declaration of the translation unit (a [`VarId`]), every
//! identifier use with the declaration it resolves to (C block scoping), every statement with the
//! node that contains it (for attaching directives), and the function definitions. The walk is
//! in `walker.rs`, declarator helpers in `declarator.rs`; what a construct does with the
//! variables (data sharing) is `lower/data_sharing.rs`.

mod declarator;
mod walker;

pub use declarator::{declarator_name, derivation_steps};
pub use walker::analyse;

use std::collections::HashMap;

use lang_c::ast::Statement;
use lang_c::span::Node;

use crate::diag::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    Global,
    Param,
    Auto,
    Static,
    Extern,
}

/// What kind of type a variable has, as far as data-sharing checks care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeClass {
    Integer,
    Floating,
    /// `_Complex` and other arithmetic types that have no order
    OtherArithmetic,
    Pointer,
    Array,
    Record,
    Function,
    /// `__typeof__`, `_Atomic(...)`: not classified, accepted
    Unknown,
}

impl TypeClass {
    pub fn is_arithmetic(self) -> bool {
        matches!(
            self,
            TypeClass::Integer
                | TypeClass::Floating
                | TypeClass::OtherArithmetic
                | TypeClass::Unknown
        )
    }
}

/// One variable (object) declaration.
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub ident_span: Span,
    pub storage: Storage,
    pub class: TypeClass,
    pub is_const: bool,
    /// where the name is visible: from after its declarator to the end of its block
    pub scope: Span,
    /// the declaration specifiers that name the type (storage class and `inline` left out)
    pub type_specifiers: Vec<Span>,
    /// the declarator, without its initializer
    pub declarator: Span,
    /// for an array parameter: the outermost `[...]` (the parameter is really a pointer)
    pub param_array_dim: Option<Span>,
    /// identifier uses inside the type (VLA sizes, `__typeof__` operands)
    pub type_uses: Vec<Use>,
    /// a use of a typedef or tag declared inside a function: the type cannot be named at file scope
    pub local_type: Option<Span>,
    /// index into `Program::functions` for locals and parameters
    pub function: Option<usize>,
    /// an `_Atomic` object (not a pointer to one): C makes its updates atomic
    pub is_atomic: bool,
    /// the type's derivations, for following pointers (`lower/write_scope.rs`)
    pub shape: Shape,
    /// `_Thread_local` / `__thread`: each thread has its own object
    pub thread_local: bool,
    /// `&name` occurs somewhere in the file
    pub address_taken: bool,
}

/// One derivation of a declared type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Pointer,
    /// `sized`: the array has a written size (`extern int a[];` has none)
    Array {
        sized: bool,
    },
    Function,
}

/// A declared type as far as derivations go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shape {
    /// from the name outward: `double (*p)[N]` is `[Pointer, Array]`, `double *a[N]` is
    /// `[Array, Pointer]`; an array parameter starts with `Pointer`
    pub steps: Vec<Step>,
    /// the specifiers name a type whose own derivations are hidden (a typedef of a pointer
    /// or an array, `__typeof__`, `_Atomic(T)`): nothing is known past `steps`
    pub opaque_base: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    Var(VarId),
    /// a constant of an `enum` declared inside a function: the span of that enum specifier
    LocalConstant(Span),
    /// a function, a file-scope enumeration constant, or an undeclared name
    Other,
}

/// An identifier in an expression.
#[derive(Debug, Clone)]
pub struct Use {
    pub name: String,
    pub span: Span,
    pub binding: Binding,
}

/// A statement or block-item declaration inside a function body, for attaching directives.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    pub span: Span,
    /// the innermost statement, block or function that contains it
    pub parent: Span,
    pub statement: Option<&'a Node<Statement>>,
}

#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    /// the whole definition, specifiers included
    pub span: Span,
    pub body: Span,
    pub parameter_count: usize,
    pub returns_void: bool,
    pub is_system: bool,
}

/// A function declared inside a function body: visible in `scope` only, so an outlined region
/// that calls it repeats the declaration.
#[derive(Debug, Clone)]
pub struct LocalFunction {
    pub name: String,
    /// the declaration's specifiers (`int`, `extern double`)
    pub specifiers: Span,
    /// the function's declarator (`twice(double)`)
    pub declarator: Span,
    /// from the declarator to the end of its block
    pub scope: Span,
}

#[derive(Default)]
pub struct Program<'a> {
    /// `register` storage-class specifiers of local declarations and of parameters of function
    /// definitions (dropped: a region takes the
    /// address of the shared locals it uses, and `register` forbids that; it is only a hint)
    pub register_specifiers: Vec<Span>,
    pub vars: Vec<Var>,
    pub uses: Vec<Use>,
    pub items: Vec<Item<'a>>,
    pub functions: Vec<Function>,
    /// the body of each function of `functions`, same index
    pub function_bodies: Vec<&'a Node<Statement>>,
    /// declarator identifiers of functions (definitions and prototypes), for renaming `main`
    pub function_names: Vec<(String, Span)>,
    /// functions declared at block scope (`int twice(double);` inside `main`)
    pub local_functions: Vec<LocalFunction>,
    /// the shapes of struct and union members by name; `None` when members of that name differ
    pub members: HashMap<String, Option<Shape>>,
    /// variable indexes by name, in declaration order (built on first lookup)
    vars_by_name: std::cell::OnceCell<HashMap<String, Vec<usize>>>,
}

fn span_of(s: lang_c::span::Span) -> Span {
    Span::new(s.start, s.end)
}

/// A variable: its index in `Program::vars`.
pub type VarId = usize;

impl<'a> Program<'a> {
    /// The variable named `name` visible at `offset` inside function `function` (or at file scope).
    pub fn visible(&self, name: &str, offset: usize, function: Option<usize>) -> Option<VarId> {
        let candidates = self.named(name);
        crate::work::count(candidates.len());
        let mut best: Option<usize> = None;
        for (&i, v) in candidates
            .iter()
            .filter_map(|i| Some((i, self.vars.get(*i)?)))
        {
            if v.ident_span.start > offset {
                continue;
            }
            let visible = match v.storage {
                Storage::Global => true,
                _ => {
                    v.function == function
                        && function.is_some()
                        && v.scope.start <= offset
                        && offset < v.scope.end
                }
            };
            if !visible {
                continue;
            }
            // innermost = declared last among the visible ones (locals are declared after globals)
            if best.is_none_or(|b| {
                self.vars
                    .get(b)
                    .is_none_or(|bv| bv.ident_span.start <= v.ident_span.start)
            }) {
                best = Some(i);
            }
        }
        best
    }

    /// Every variable declared with the name `name`, in declaration order.
    pub fn named(&self, name: &str) -> &[VarId] {
        self.vars_by_name
            .get_or_init(|| {
                let mut index: HashMap<String, Vec<usize>> = HashMap::new();
                for (i, v) in self.vars.iter().enumerate() {
                    index.entry(v.name.clone()).or_default().push(i);
                }
                index
            })
            .get(name)
            .map_or(&[][..], Vec::as_slice)
    }

    /// The function whose body contains `offset`.
    pub fn function_at(&self, offset: usize) -> Option<usize> {
        // definitions do not overlap and come in source order
        let after = self.functions.partition_point(|f| f.body.start <= offset);
        let i = after.checked_sub(1)?;
        let f = self.functions.get(i)?;
        (f.body.start <= offset && offset < f.body.end).then_some(i)
    }
}
