//! Linked sprites: a sprite with no data shows another one's pixels.

use super::index::Index;
use crate::formats::Diagnostic;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    Unknown,
    OnPath,
    Source(usize),
    Dangling(usize),
    Loop,
}

/// Where a chain of links ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// At this entry, which has its own data.
    Source(usize),
    /// At a number past the table.
    Dangling(usize),
    /// In a loop.
    Loop,
}

/// Follows every chain of `links` (`links[i]` is the entry `i` names, `None` for an entry
/// with its own data). Linear time: each entry is walked once.
pub fn follow_links(links: &[Option<usize>]) -> Vec<LinkEnd> {
    let count = links.len();
    let mut state = vec![Walk::Unknown; count];
    let mut path = Vec::new();
    for start in 0..count {
        let mut at = start;
        let outcome = loop {
            if at >= count {
                break Walk::Dangling(at);
            }
            match state[at] {
                Walk::Unknown => {}
                Walk::OnPath => break Walk::Loop,
                known => break known,
            }
            match links[at] {
                None => break Walk::Source(at),
                Some(next) => {
                    state[at] = Walk::OnPath;
                    path.push(at);
                    at = next;
                }
            }
        };
        for i in path.drain(..) {
            state[i] = outcome;
        }
        if links[start].is_none() {
            state[start] = Walk::Source(start);
        }
    }
    state
        .into_iter()
        .map(|s| match s {
            Walk::Source(t) => LinkEnd::Source(t),
            Walk::Dangling(t) => LinkEnd::Dangling(t),
            _ => LinkEnd::Loop,
        })
        .collect()
}

/// Follows each sprite's link to a sprite with data, and copies that sprite's size, format
/// and data range. Links past the table or in a loop are reported and leave the sprite broken.
pub fn resolve_links(index: &mut Index, links: &[Option<usize>]) {
    let count = index.sprites.len();
    for (i, outcome) in follow_links(links).into_iter().enumerate() {
        if links[i].is_none() {
            continue;
        }
        let (group, image) = (index.sprites[i].group, index.sprites[i].image);
        let offset = index.sprites[i].header_offset;
        let target = match outcome {
            LinkEnd::Source(target) => target,
            LinkEnd::Dangling(target) => {
                let d = Diagnostic::error_at_byte(
                    offset,
                    format!(
                        "sprite {group},{image} links to sprite number {target}, but there are only {count}"
                    ),
                );
                index.diagnostics.push(d.clone());
                index.data[i].broken = Some(Box::new(d));
                continue;
            }
            LinkEnd::Loop => {
                let d = Diagnostic::error_at_byte(
                    offset,
                    format!("sprite {group},{image} is part of a loop of linked sprites"),
                );
                index.diagnostics.push(d.clone());
                index.data[i].broken = Some(Box::new(d));
                continue;
            }
        };
        let source = index.sprites[target].clone();
        let sprite = &mut index.sprites[i];
        sprite.linked_to = Some(target);
        sprite.width = source.width;
        sprite.height = source.height;
        sprite.format = source.format;
        let source_data = index.data[target].clone();
        let data = &mut index.data[i];
        data.range = source_data.range;
        data.pcx_has_palette = source_data.pcx_has_palette;
        data.broken = source_data.broken.map(|d| {
            Box::new(Diagnostic::error_at_byte(
                offset,
                format!(
                    "sprite {group},{image} links to a damaged sprite: {}",
                    d.message
                ),
            ))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_end_at_data_past_the_table_or_in_loops() {
        let links = [None, Some(0), Some(1), Some(9), Some(5), Some(4), Some(3)];
        assert_eq!(
            follow_links(&links),
            vec![
                LinkEnd::Source(0),
                LinkEnd::Source(0),
                LinkEnd::Source(0),
                LinkEnd::Dangling(9),
                LinkEnd::Loop,
                LinkEnd::Loop,
                LinkEnd::Dangling(9),
            ]
        );
    }
}
