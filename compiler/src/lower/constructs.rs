//! The construct tree of the file, built once: for each directive (in file order) the
//! statement it applies to, the end of its extent, its innermost enclosing construct and the
//! directives inside it. Every pass asks the tree instead of re-deriving the structure from
//! spans (nesting checks, predetermined loop variables, clause uses inside a region).

use std::ops::Range;

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::{statement_of, statement_span, Context};
use crate::diag::Diagnostic;
use crate::directive::Directive;
use crate::resolve::VarId;

pub struct ConstructTree<'a> {
    nodes: Vec<Construct<'a>>,
    /// the variables named by a `threadprivate` directive, sorted
    threadprivate: Vec<VarId>,
}

struct Construct<'a> {
    /// the statement of a construct (`None` for stand-alone and declarative directives)
    statement: Option<Result<&'a Node<Statement>, Diagnostic>>,
    /// the innermost construct of the same function whose block contains the pragma
    parent: Option<usize>,
    /// the indexes of the directives inside the construct's extent (empty when it has none)
    inside: Range<usize>,
}

impl<'a> ConstructTree<'a> {
    /// One pass with a stack of the constructs still open, so each directive is pushed and
    /// popped once.
    pub fn build(cx: &Context<'_, 'a>) -> Self {
        let mut nodes: Vec<Construct<'a>> = Vec::with_capacity(cx.directives.len());
        // (index, end of its statement) of the constructs open at the current directive
        let mut open: Vec<(usize, usize)> = Vec::new();
        for (index, d) in cx.directives.iter().enumerate() {
            while let Some(&(closed, end)) = open.last() {
                if end > d.span.start {
                    break;
                }
                crate::work::count(1);
                open.pop();
                if let Some(node) = nodes.get_mut(closed) {
                    node.inside = closed + 1..index;
                }
            }
            let function = cx.program.function_at(d.span.start);
            let parent = open.last().map(|&(i, _)| i).filter(|&i| {
                cx.directives
                    .get(i)
                    .is_some_and(|e| cx.program.function_at(e.span.start) == function)
            });
            let statement = d.is_construct().then(|| statement_of(cx, d));
            if let Some(Ok(stmt)) = &statement {
                open.push((index, statement_span(cx, stmt.span).end));
            }
            nodes.push(Construct {
                statement,
                parent,
                inside: index + 1..index + 1,
            });
        }
        let count = nodes.len();
        for (closed, _) in open {
            if let Some(node) = nodes.get_mut(closed) {
                node.inside = closed + 1..count;
            }
        }
        ConstructTree {
            nodes,
            threadprivate: super::thread_local::threadprivate_vars(cx.program, cx.directives),
        }
    }

    fn index(cx: &Context, d: &Directive) -> usize {
        cx.directives
            .partition_point(|e| e.span.start < d.span.start)
    }

    /// The statement `d` applies to, or why there is none.
    pub fn statement(
        &self,
        cx: &Context<'_, 'a>,
        d: &Directive,
    ) -> Result<&'a Node<Statement>, Diagnostic> {
        match self
            .nodes
            .get(Self::index(cx, d))
            .and_then(|n| n.statement.as_ref())
        {
            Some(found) => found.clone(),
            None => statement_of(cx, d),
        }
    }

    /// The innermost construct of the same function whose block contains `d`'s pragma.
    pub fn enclosing<'c>(&self, cx: &'c Context, d: &Directive) -> Option<&'c Directive> {
        let parent = self.nodes.get(Self::index(cx, d))?.parent?;
        cx.directives.get(parent)
    }

    /// The directives inside construct `d` (its extent), in file order.
    pub fn inside<'c>(&self, cx: &'c Context, d: &Directive) -> &'c [Directive] {
        self.nodes
            .get(Self::index(cx, d))
            .and_then(|n| cx.directives.get(n.inside.clone()))
            .unwrap_or(&[])
    }

    pub fn is_threadprivate(&self, v: VarId) -> bool {
        self.threadprivate.binary_search(&v).is_ok()
    }
}
