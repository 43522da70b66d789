//! Array elements an inner loop of a worksharing loop reads at every iteration although none
//! of the loop's stores can reach them: the lowering loads each once, before the loop.
//!
//! In `for (int j = k + 1; j < n; j++) A[i][j] -= A[i][k] * A[k][j];` the backend reloads
//! `A[i][k]` at every iteration, because it cannot tell that the store to `A[i][j]` never hits
//! it (that needs `j > k`, which gcc does not derive from the loop's start); the reload waits
//! on the store before it, and the loop runs about 1.6 times slower than with the value in a
//! register. The proof here is narrow and syntactic, so that it is exact:
//!
//! - the loop is `for (T j = lb; j < ub; j++)` (or `<=`, `++j`, `j += 1`), `T` a signed
//!   integer type of `int` rank or more (so `j` cannot wrap), declared in the header;
//! - its body is expression statements only, each an assignment to an element of a named
//!   array (not a parameter, not reached through a pointer, neither `volatile` nor `_Atomic`)
//!   whose right side makes no call, no assignment, no increment, and evaluates every operand
//!   (no `?:`, `&&`, `||`): the loop writes array elements and nothing else, and every load in
//!   it runs at every iteration;
//! - a load hoisted is a whole element `X[t1]...[tn]` of such an array whose subscripts are
//!   made of integer constants and of signed integer variables other than `j`, with `+`, `-`,
//!   `*` (the loop cannot change them: it writes array elements only);
//! - every store to `X` itself is `X[s1]...[s(n-1)][j]` with `s1...s(n-1)` the same text as
//!   `t1...t(n-1)`, and `lb` is `tn + c` for a constant `c > 0`: the element stored is then
//!   `j - tn > 0` elements past the one loaded, at every iteration. Stores to other named
//!   arrays cannot reach `X` (distinct objects).
//!
//! The hoisted loads run only when the loop runs at least once (a guard repeats its first
//! test, side-effect free by the rules above), so a load the loop would not have made is not
//! made either.

use lang_c::ast::*;
use lang_c::span::Node;

use super::common::{canonical_form, identifier_of, is_assignment, StepForm};
use super::{
    contains, emit_edits, emit_span, overlaps, span_of, statement_span, Context, Env, Out,
};
use crate::diag::Span;
use crate::emit::{apply_in, Edit};
use crate::resolve::{Step, Storage, TypeClass, VarId};

/// One inner loop whose invariant loads are hoisted.
pub struct Hoist {
    /// the `for` statement
    pub statement: Span,
    /// the loop variable's type, and the spans of its first value and of the bound
    pub var_type: String,
    pub lb: Span,
    pub ub: Span,
    pub less_equal: bool,
    /// each element loaded (its first occurrence) and every occurrence of the same text
    pub loads: Vec<(Span, Vec<Span>)>,
}

/// Signed integer types of `int` rank or more, as spelled in the loop header.
const WIDE_SIGNED: [&str; 7] = [
    "int",
    "signed",
    "signed int",
    "long",
    "long int",
    "long long",
    "long long int",
];

/// The inner loops of `body` (the body of a worksharing loop) with loads to hoist.
pub fn hoists(cx: &Context, body: &Node<Statement>) -> Vec<Hoist> {
    let mut found = Vec::new();
    walk(cx, body, &mut found);
    found
}

fn walk(cx: &Context, s: &Node<Statement>, found: &mut Vec<Hoist>) {
    match &s.node {
        Statement::Compound(items) => {
            for item in items {
                if let BlockItem::Statement(st) = &item.node {
                    walk(cx, st, found);
                }
            }
        }
        Statement::If(i) => {
            walk(cx, &i.node.then_statement, found);
            if let Some(e) = &i.node.else_statement {
                walk(cx, e, found);
            }
        }
        Statement::While(w) => walk(cx, &w.node.statement, found),
        Statement::DoWhile(w) => walk(cx, &w.node.statement, found),
        Statement::Labeled(l) => walk(cx, &l.node.statement, found),
        Statement::For(f) => match hoist_in(cx, s, f) {
            Some(h) => found.push(h),
            None => walk(cx, &f.node.statement, found),
        },
        _ => {}
    }
}

/// A subscript chain on a named array: the array and the subscripts, outermost first.
struct Element<'a> {
    array: VarId,
    subscripts: Vec<&'a Node<Expression>>,
}

fn hoist_in(cx: &Context, s: &Node<Statement>, f: &Node<ForStatement>) -> Option<Hoist> {
    let c = canonical_form(cx, f, span_of(s.span), "for").ok()?;
    let less_equal = match c.test {
        BinaryOperator::Less => false,
        BinaryOperator::LessOrEqual => true,
        _ => return None,
    };
    if !c.declared_in_header || !matches!(c.step, StepForm::One) {
        return None;
    }
    let var = cx.program.vars.get(c.var)?;
    let var_type = type_text(cx, c.var);
    if !WIDE_SIGNED.contains(&var_type.as_str()) || cx.text(var.declarator).trim() != var.name {
        return None;
    }
    // the guard evaluates the bounds once more: they must not change anything
    let bounds_pure =
        bounds(f, cx, c.var).is_some_and(|(lb, ub)| bound_pure(cx, lb) && bound_pure(cx, ub));
    let mentions_var = |span: Span| {
        super::uses_in(cx, span)
            .iter()
            .any(|u| u.binding == crate::resolve::Binding::Var(c.var))
    };
    if !bounds_pure || mentions_var(c.lb) || mentions_var(c.ub) {
        return None;
    }
    // the body: assignments to named array elements, nothing else
    let mut stores = Vec::new();
    let mut candidates = Vec::new();
    for e in expression_statements(&f.node.statement)? {
        let Expression::BinaryOperator(b) = &e.node else {
            return None;
        };
        if !is_assignment(&b.node.operator.node) {
            return None;
        }
        let store = element(cx, &b.node.lhs)?;
        if !store.subscripts.iter().all(|x| pure(x)) || !pure(&b.node.rhs) {
            return None;
        }
        stores.push(store);
        collect_loads(cx, &b.node.rhs, c.var, &mut candidates);
    }
    let lb_text = squeeze(cx.text(c.lb));
    let mut loads: Vec<(Span, Vec<Span>)> = Vec::new();
    for (span, load) in candidates {
        let safe = stores
            .iter()
            .all(|st| store_misses(cx, st, &load, c.var, &lb_text));
        if !safe {
            continue;
        }
        let text = squeeze(cx.text(span));
        match loads
            .iter_mut()
            .find(|(first, _)| squeeze(cx.text(*first)) == text)
        {
            Some((_, all)) => all.push(span),
            None => loads.push((span, vec![span])),
        }
    }
    if loads.is_empty() {
        return None;
    }
    Some(Hoist {
        statement: statement_span(cx, s.span),
        var_type,
        lb: c.lb,
        ub: c.ub,
        less_equal,
        loads,
    })
}

/// The expressions of a body made of expression statements only (a block of them, or one).
fn expression_statements(s: &Node<Statement>) -> Option<Vec<&Node<Expression>>> {
    match &s.node {
        Statement::Expression(Some(e)) => Some(vec![e]),
        Statement::Compound(items) => {
            let mut all = Vec::new();
            for item in items {
                match &item.node {
                    BlockItem::Statement(Node {
                        node: Statement::Expression(Some(e)),
                        ..
                    }) => all.push(&**e),
                    _ => return None,
                }
            }
            Some(all)
        }
        _ => None,
    }
}

/// `X[s1]...[sn]` with `X` a named array of exactly `n` dimensions whose elements no code
/// outside the program's own accesses can change (neither `volatile` nor `_Atomic`).
fn element<'a>(cx: &Context, e: &'a Node<Expression>) -> Option<Element<'a>> {
    let mut subscripts = Vec::new();
    let mut at = e;
    while let Expression::BinaryOperator(b) = &at.node {
        if b.node.operator.node != BinaryOperator::Index {
            return None;
        }
        subscripts.push(&*b.node.rhs);
        at = &b.node.lhs;
    }
    subscripts.reverse();
    let array = identifier_of(cx, at)?;
    let var = cx.program.vars.get(array)?;
    let dims = var.shape.steps.len();
    let plain = var.class == TypeClass::Array
        && var.param_array_dim.is_none()
        && !matches!(var.storage, Storage::Param)
        && !var.shape.opaque_base
        && var
            .shape
            .steps
            .iter()
            .all(|s| matches!(s, Step::Array { .. }))
        && dims == subscripts.len()
        && !var.is_atomic
        && !type_text(cx, array).contains("volatile");
    plain.then_some(Element { array, subscripts })
}

/// Whole array elements read by `e` whose subscripts are loop-invariant.
fn collect_loads<'a>(
    cx: &Context,
    e: &'a Node<Expression>,
    loop_var: VarId,
    into: &mut Vec<(Span, Element<'a>)>,
) {
    if let Some(el) = element(cx, e) {
        if el.subscripts.iter().all(|s| invariant(cx, s, loop_var)) {
            into.push((span_of(e.span), el));
            return;
        }
    }
    match &e.node {
        Expression::BinaryOperator(b) => {
            collect_loads(cx, &b.node.lhs, loop_var, into);
            collect_loads(cx, &b.node.rhs, loop_var, into);
        }
        Expression::UnaryOperator(u) => collect_loads(cx, &u.node.operand, loop_var, into),
        Expression::Cast(c) => collect_loads(cx, &c.node.expression, loop_var, into),
        _ => {}
    }
}

/// Whether the store `st` never writes the element `load` (see the module's rules).
fn store_misses(
    cx: &Context,
    st: &Element,
    load: &Element,
    loop_var: VarId,
    lb_text: &str,
) -> bool {
    if st.array != load.array {
        let (a, b) = (&cx.program.vars[st.array], &cx.program.vars[load.array]);
        // two declarations of one name could be one object (block-scope `extern`)
        return a.name != b.name;
    }
    let n = load.subscripts.len();
    let (Some(last_store), Some(last_load)) = (st.subscripts.last(), load.subscripts.last()) else {
        return false;
    };
    if st.subscripts.len() != n || identifier_of(cx, last_store) != Some(loop_var) {
        return false;
    }
    let same_prefix = st.subscripts[..n - 1]
        .iter()
        .zip(&load.subscripts[..n - 1])
        .all(|(a, b)| squeeze(cx.text(span_of(a.span))) == squeeze(cx.text(span_of(b.span))));
    if !same_prefix {
        return false;
    }
    // lb is `tn + c`, c > 0: j > tn at every iteration
    let t = squeeze(cx.text(span_of(last_load.span)));
    let past = [format!("{t}+"), format!("({t})+")]
        .iter()
        .find_map(|p| lb_text.strip_prefix(p.as_str()).map(str::to_string));
    past.is_some_and(|c| {
        !c.is_empty()
            && c.bytes().all(|b| b.is_ascii_digit())
            && !c.trim_start_matches('0').is_empty()
    })
}

/// Integer constants and signed integer variables of `int` rank or more (not the loop's
/// variable, not `volatile`), with `+`, `-`, `*`.
fn invariant(cx: &Context, e: &Node<Expression>, loop_var: VarId) -> bool {
    match &e.node {
        Expression::Constant(c) => matches!(&c.node, Constant::Integer(i)
            if i.suffix.size == IntegerSize::Int && !i.suffix.unsigned && !i.suffix.imaginary),
        Expression::Identifier(_) => identifier_of(cx, e).is_some_and(|v| {
            let var = &cx.program.vars[v];
            v != loop_var
                && var.class == TypeClass::Integer
                && !var.is_atomic
                && cx.text(var.declarator).trim() == var.name
                && WIDE_SIGNED.contains(&type_text(cx, v).as_str())
        }),
        Expression::BinaryOperator(b) => {
            matches!(
                b.node.operator.node,
                BinaryOperator::Plus | BinaryOperator::Minus | BinaryOperator::Multiply
            ) && invariant(cx, &b.node.lhs, loop_var)
                && invariant(cx, &b.node.rhs, loop_var)
        }
        _ => false,
    }
}

/// No call, assignment, increment or decrement, and every operand evaluated.
fn pure(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Identifier(_) | Expression::Constant(_) => true,
        Expression::BinaryOperator(b) => {
            use BinaryOperator::*;
            !is_assignment(&b.node.operator.node)
                && !matches!(b.node.operator.node, LogicalAnd | LogicalOr)
                && pure(&b.node.lhs)
                && pure(&b.node.rhs)
        }
        Expression::UnaryOperator(u) => {
            use UnaryOperator::*;
            matches!(
                u.node.operator.node,
                Plus | Minus | Complement | Negate | Indirection
            ) && pure(&u.node.operand)
        }
        Expression::Cast(c) => pure(&c.node.expression),
        _ => false,
    }
}

/// The first value and the bound of `for (T j = lb; j < ub; ...)`.
fn bounds<'a>(
    f: &'a Node<ForStatement>,
    cx: &Context,
    var: VarId,
) -> Option<(&'a Node<Expression>, &'a Node<Expression>)> {
    let ForInitializer::Declaration(d) = &f.node.initializer.node else {
        return None;
    };
    let [one] = d.node.declarators.as_slice() else {
        return None;
    };
    let Some(Initializer::Expression(lb)) = one.node.initializer.as_ref().map(|i| &i.node) else {
        return None;
    };
    let Expression::BinaryOperator(test) = &f.node.condition.as_ref()?.node else {
        return None;
    };
    (identifier_of(cx, &test.node.lhs) == Some(var)).then_some((&**lb, &*test.node.rhs))
}

/// Constants and variables that are neither `volatile` nor `_Atomic`, with operators that
/// change nothing (no subscript, no `*p`: nothing the guard reads can be a device register).
fn bound_pure(cx: &Context, e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Constant(_) => true,
        Expression::Identifier(_) => identifier_of(cx, e).is_some_and(|v| {
            let var = &cx.program.vars[v];
            !var.is_atomic && !type_text(cx, v).contains("volatile")
        }),
        Expression::BinaryOperator(b) => {
            use BinaryOperator::*;
            !is_assignment(&b.node.operator.node)
                && !matches!(b.node.operator.node, LogicalAnd | LogicalOr | Index)
                && bound_pure(cx, &b.node.lhs)
                && bound_pure(cx, &b.node.rhs)
        }
        Expression::UnaryOperator(u) => {
            use UnaryOperator::*;
            matches!(u.node.operator.node, Plus | Minus | Complement | Negate)
                && bound_pure(cx, &u.node.operand)
        }
        Expression::Cast(c) => bound_pure(cx, &c.node.expression),
        _ => false,
    }
}

fn type_text(cx: &Context, v: VarId) -> String {
    cx.program.vars[v]
        .type_specifiers
        .iter()
        .map(|s| cx.text(*s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text without whitespace, for comparing expressions made of names and constants.
fn squeeze(t: &str) -> String {
    t.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text of `body` (the body of a worksharing loop, at `span`) as `emit_span` makes it,
/// with the invariant loads of its inner loops hoisted: `{ if ((T)(lb) < (ub)) { __typeof__(X)
/// __cape_inv0 = X; for (...) ...__cape_inv0... } }`.
pub fn emit_body(
    cx: &Context,
    out: &mut Out,
    body: &Node<Statement>,
    span: Span,
    env: &Env,
) -> String {
    let mut edits = emit_edits(cx, out, span, env);
    // a construct inside the body is lowered on its own; leave such bodies alone
    let has_directive = cx.directives.iter().any(|d| contains(span, d.span));
    if !has_directive {
        for h in hoists(cx, body) {
            // a statement replaced whole (a lock span, say) holds the loop
            if edits
                .iter()
                .any(|e| overlaps(e.span, h.statement) && !contains(h.statement, e.span))
            {
                continue;
            }
            let test = if h.less_equal { "<=" } else { "<" };
            let mut head = format!(
                "{{ if (({})({}) {test} ({})) {{",
                h.var_type,
                emit_span(cx, out, h.lb, env),
                emit_span(cx, out, h.ub, env)
            );
            for (n, (first, all)) in h.loads.iter().enumerate() {
                let load = emit_span(cx, out, *first, env);
                head.push_str(&format!(" __typeof__({load}) __cape_inv{n} = {load};"));
                for at in all {
                    edits.retain(|e| !overlaps(e.span, *at));
                    edits.push(Edit::replace(*at, format!("__cape_inv{n}")));
                }
            }
            head.push(' ');
            edits.push(Edit::insert(h.statement.start, head));
            edits.push(Edit::insert(h.statement.end, " } }".to_string()));
        }
    }
    match apply_in(cx.source, span, &edits) {
        Ok(text) => text,
        Err(e) => {
            out.errors.push(e);
            String::new()
        }
    }
}
