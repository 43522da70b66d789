//! Helpers over lang-c declarators: the declared name, parameters, the derived type class.

use lang_c::ast::*;
use lang_c::span::Node;

use super::{span_of, Step, TypeClass};
use crate::diag::Span;

pub fn declarator_name(d: &Declarator) -> Option<(String, Span)> {
    match &d.kind.node {
        DeclaratorKind::Identifier(i) => Some((i.node.name.clone(), span_of(i.span))),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

pub(super) fn function_params(d: &Declarator) -> Option<&Vec<Node<ParameterDeclaration>>> {
    // the function declarator applied directly to the name
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        if let Some(p) = function_params(&inner.node) {
            return Some(p);
        }
    }
    d.derived.iter().find_map(|x| match &x.node {
        DerivedDeclarator::Function(f) => Some(&f.node.parameters),
        _ => None,
    })
}

/// The identifier list of a K&R function declarator (`f(a, b)`), empty otherwise.
pub(super) fn kr_identifiers(d: &Declarator) -> &[Node<Identifier>] {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        let found = kr_identifiers(&inner.node);
        if !found.is_empty() {
            return found;
        }
    }
    d.derived
        .iter()
        .find_map(|x| match &x.node {
            DerivedDeclarator::KRFunction(ids) => Some(ids.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

pub(super) fn has_pointer(d: &Declarator) -> bool {
    let inner = match &d.kind.node {
        DeclaratorKind::Declarator(i) => has_pointer(&i.node),
        _ => false,
    };
    inner
        || d.derived
            .iter()
            .any(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
}

/// The class of the declared object: derived declarators override the specifiers' class. The
/// innermost derived declarator (closest to the name) decides.
pub(super) fn derive_class(base: TypeClass, d: &Declarator, parameter: bool) -> TypeClass {
    let mut all: Vec<(usize, &DerivedDeclarator)> = Vec::new();
    collect_derived(d, &mut all);
    let Some((_, first)) = innermost(d, &all) else {
        return base;
    };
    match first {
        DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => TypeClass::Pointer,
        DerivedDeclarator::Array(_) if parameter => TypeClass::Pointer,
        DerivedDeclarator::Array(_) => TypeClass::Array,
        DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) if parameter => {
            TypeClass::Pointer
        }
        DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => TypeClass::Function,
    }
}

pub(super) fn collect_derived<'d>(
    d: &'d Declarator,
    out: &mut Vec<(usize, &'d DerivedDeclarator)>,
) {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        collect_derived(&inner.node, out);
    }
    for x in &d.derived {
        out.push((x.span.start, &x.node));
    }
}

/// The derived declarator applied first to the name: in the innermost declarator that has any,
/// a suffix (array, function) right after the name binds tighter than a prefix pointer.
pub(super) fn innermost<'d>(
    d: &'d Declarator,
    _all: &[(usize, &'d DerivedDeclarator)],
) -> Option<(usize, &'d DerivedDeclarator)> {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        if let Some(x) = innermost(&inner.node, _all) {
            return Some(x);
        }
    }
    let name_end = match &d.kind.node {
        DeclaratorKind::Identifier(i) => i.span.end,
        DeclaratorKind::Declarator(i) => i.span.end,
        DeclaratorKind::Abstract => 0,
    };
    let suffix = d
        .derived
        .iter()
        .filter(|x| x.span.start >= name_end && !matches!(x.node, DerivedDeclarator::Pointer(_)))
        .min_by_key(|x| x.span.start);
    if let Some(s) = suffix {
        return Some((s.span.start, &s.node));
    }
    d.derived
        .iter()
        .filter(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        .max_by_key(|x| x.span.start)
        .map(|x| (x.span.start, &x.node))
}

pub(super) fn param_array_dim(d: &Declarator) -> Option<Span> {
    let DeclaratorKind::Identifier(i) = &d.kind.node else {
        return None;
    };
    d.derived
        .iter()
        .filter(|x| x.span.start >= i.span.end && matches!(x.node, DerivedDeclarator::Array(_)))
        .min_by_key(|x| x.span.start)
        .map(|x| span_of(x.span))
}

pub(super) fn type_specifier_spans(specs: &[Node<DeclarationSpecifier>]) -> Vec<Span> {
    specs
        .iter()
        .filter(|s| {
            matches!(
                s.node,
                DeclarationSpecifier::TypeSpecifier(_)
                    | DeclarationSpecifier::TypeQualifier(_)
                    | DeclarationSpecifier::Extension(_)
            )
        })
        .map(|s| span_of(s.span))
        .collect()
}

/// The derivations of a declarator from the name outward (see [`super::Shape`]): an inner
/// declarator binds first; in each, array and function suffixes bind before the pointers in
/// front, the pointer nearest the name first. `parameter`: an array or function parameter is
/// a pointer.
pub fn derivation_steps(d: &Declarator, parameter: bool) -> Vec<Step> {
    let mut steps = Vec::new();
    steps_into(d, &mut steps);
    if parameter {
        if let Some(first) = steps.first_mut() {
            if matches!(first, Step::Array { .. } | Step::Function) {
                *first = Step::Pointer;
            }
        }
    }
    steps
}

fn steps_into(d: &Declarator, out: &mut Vec<Step>) {
    let name_end = match &d.kind.node {
        DeclaratorKind::Identifier(i) => i.span.end,
        DeclaratorKind::Declarator(i) => {
            steps_into(&i.node, out);
            i.span.end
        }
        DeclaratorKind::Abstract => 0,
    };
    let mut suffixes: Vec<&Node<DerivedDeclarator>> = d
        .derived
        .iter()
        .filter(|x| x.span.start >= name_end && !matches!(x.node, DerivedDeclarator::Pointer(_)))
        .collect();
    suffixes.sort_by_key(|x| x.span.start);
    let mut pointers: Vec<&Node<DerivedDeclarator>> = d
        .derived
        .iter()
        .filter(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        .collect();
    pointers.sort_by_key(|x| std::cmp::Reverse(x.span.start));
    for x in suffixes.into_iter().chain(pointers) {
        out.push(match &x.node {
            DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => Step::Pointer,
            DerivedDeclarator::Array(a) => Step::Array {
                sized: !matches!(a.node.size, ArraySize::Unknown | ArraySize::VariableUnknown),
            },
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => Step::Function,
        });
    }
}
