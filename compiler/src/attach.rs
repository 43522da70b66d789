//! Binds each directive to the statement that follows it in the same block (DESIGN.md 2.4).

use crate::diag::Span;
use crate::resolve::Item;

/// The statement a directive at `pragma` (the pragma line's span) applies to: the item with the
/// smallest start after the pragma, outermost on ties, provided its parent also contains the
/// pragma. `Err(Some(item))` when the next item is not a statement (a declaration), `Err(None)`
/// when nothing follows in the same block. `items` are sorted by start.
pub fn attach<'a, 'b>(
    pragma: Span,
    items: &'b [Item<'a>],
) -> Result<&'b Item<'a>, Option<&'b Item<'a>>> {
    let first = items.partition_point(|i| i.span.start < pragma.end);
    let following = items.get(first..).unwrap_or(&[]);
    let start = following.first().map(|i| i.span.start);
    let next = following
        .iter()
        .take_while(|i| Some(i.span.start) == start)
        .inspect(|_| crate::work::count(1))
        .min_by_key(|i| usize::MAX - i.span.end);
    match next {
        Some(item) if item.parent.start <= pragma.start && pragma.end <= item.parent.end => {
            if item.statement.is_some() {
                Ok(item)
            } else {
                Err(Some(item))
            }
        }
        _ => Err(None),
    }
}
