//! Reads the Lua form of Solarus 1.x sprite files without running them: a chunk of
//! `animation{...}` (or `animation({...})`) calls whose tables hold strings, numbers and nested
//! tables. Anything else is refused with its line and column.

use super::data::{AnimationData, DirectionData, Entry, EntryExtra};
use super::lua_lexer::{Token, TokenKind, TokenStream, check_tokens};
use super::problems::Problems;
use std::collections::VecDeque;

/// Tables deeper than this are refused (sprite files need three levels).
const MAX_DEPTH: usize = 16;

/// A value of a table field.
#[derive(Clone, Debug)]
enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool,
    Nil,
    Table(Vec<Field>),
}

impl Value {
    fn describe(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) | Value::Float(_) => "a number",
            Value::Bool => "a boolean",
            Value::Nil => "nil",
            Value::Table(_) => "a table",
        }
    }
}

/// One field of a table constructor.
#[derive(Clone, Debug)]
struct Field {
    /// `name = value` or `["name"] = value`; `None` for a positional value.
    key: Option<String>,
    value: Value,
    /// Where the field starts.
    start: usize,
    /// One past its end.
    end: usize,
    /// Where its value starts.
    value_at: usize,
}

/// Reads every animation call. A syntax error stops the read: `Err` holds its offset and
/// message. Errors inside an animation are recorded in `problems` and make that entry unusable.
pub fn read_entries(text: &[u8], problems: &mut Problems) -> Result<Vec<Entry>, (usize, String)> {
    // A lexical error anywhere is the error, as before any animation is read; then the tokens
    // are read again one at a time, never all held.
    check_tokens(text).map_err(|e| (e.at, e.message))?;
    let mut parser = Parser::new(text);
    let mut entries = Vec::new();
    loop {
        let token = parser.peek().clone();
        match &token.kind {
            TokenKind::End => return Ok(entries),
            TokenKind::Punct(';') => parser.advance(),
            TokenKind::Name(name) if name == "animation" => {
                parser.advance();
                let (fields, end) = parser.call_argument()?;
                entries.push(animation_entry(text, &fields, token.start..end, problems));
            }
            _ => {
                return Err((
                    token.start,
                    "expected an animation{...} call: a sprite file holds nothing else".into(),
                ));
            }
        }
    }
}

struct Parser<'a> {
    stream: TokenStream<'a>,
    /// The tokens read ahead: always the current one, and at most one more.
    ahead: VecDeque<Token>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a [u8]) -> Parser<'a> {
        let mut parser = Parser {
            stream: TokenStream::new(text),
            ahead: VecDeque::with_capacity(2),
        };
        parser.fill(1);
        parser
    }

    /// Reads ahead until `count` tokens are waiting. The text was checked whole first, so
    /// the stream has no error to give; were there one, it would read as the end.
    fn fill(&mut self, count: usize) {
        while self.ahead.len() < count {
            let token = self.stream.next_token().unwrap_or_else(|e| Token {
                kind: TokenKind::End,
                start: e.at,
                end: e.at,
            });
            self.ahead.push_back(token);
        }
    }

    fn peek(&self) -> &Token {
        // `fill` keeps the current token waiting; the stream gives `End` again after the end.
        &self.ahead[0]
    }

    /// The token after the current one.
    fn peek_second(&mut self) -> &Token {
        self.fill(2);
        &self.ahead[1]
    }

    /// Moves past the current token.
    fn advance(&mut self) {
        self.ahead.pop_front();
        self.fill(1);
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        if token.kind != TokenKind::End {
            self.advance();
        }
        token
    }

    fn expect(&mut self, punct: char, what: &str) -> Result<Token, (usize, String)> {
        let token = self.next();
        if token.kind == TokenKind::Punct(punct) {
            Ok(token)
        } else {
            Err((token.start, format!("expected '{punct}' {what}")))
        }
    }

    /// `{...}` or `({...})` after `animation`; returns the fields and the end of the call.
    fn call_argument(&mut self) -> Result<(Vec<Field>, usize), (usize, String)> {
        match self.peek().kind {
            TokenKind::Punct('{') => {
                let (fields, end) = self.table(1)?;
                Ok((fields, end))
            }
            TokenKind::Punct('(') => {
                self.advance();
                let open = self.peek().clone();
                if open.kind != TokenKind::Punct('{') {
                    return Err((
                        open.start,
                        "animation() takes one table: animation{...}".into(),
                    ));
                }
                let (fields, _) = self.table(1)?;
                let close = self.expect(')', "to close animation(...)")?;
                Ok((fields, close.end))
            }
            _ => Err((
                self.peek().start,
                "expected '{' after animation: animation{...}".into(),
            )),
        }
    }

    /// A table constructor; the current token is `{`.
    fn table(&mut self, depth: usize) -> Result<(Vec<Field>, usize), (usize, String)> {
        let open = self.next();
        if depth > MAX_DEPTH {
            return Err((open.start, "tables are nested too deeply".into()));
        }
        let mut fields = Vec::new();
        loop {
            let start = self.peek().start;
            if let TokenKind::Punct('}') = self.peek().kind {
                let close = self.next();
                return Ok((fields, close.end));
            }
            let key = self.field_key()?;
            let value_at = self.peek().start;
            let (value, end) = self.value(depth)?;
            fields.push(Field {
                key,
                value,
                start,
                end,
                value_at,
            });
            let separator = self.next();
            match separator.kind {
                TokenKind::Punct(',' | ';') => {}
                TokenKind::Punct('}') => return Ok((fields, separator.end)),
                TokenKind::End => {
                    return Err((open.start, "this table is never closed".into()));
                }
                _ => {
                    return Err((
                        separator.start,
                        "expected ',' or '}' after a table field".into(),
                    ));
                }
            }
        }
    }

    /// `name =` or `["name"] =` before a value, if present.
    fn field_key(&mut self) -> Result<Option<String>, (usize, String)> {
        match self.peek().kind.clone() {
            TokenKind::Name(name) => {
                if self.peek_second().kind == TokenKind::Punct('=') {
                    self.advance();
                    self.advance();
                    return Ok(Some(name));
                }
                Ok(None)
            }
            TokenKind::Punct('[') => {
                self.advance();
                let key = self.next();
                let name = match key.kind {
                    TokenKind::Str(s) => s,
                    TokenKind::Int(i) => i.to_string(),
                    _ => return Err((key.start, "expected a string key inside [ ]".into())),
                };
                self.expect(']', "after the key")?;
                self.expect('=', "after the key")?;
                Ok(Some(name))
            }
            _ => Ok(None),
        }
    }

    /// A value; returns it and its end.
    fn value(&mut self, depth: usize) -> Result<(Value, usize), (usize, String)> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Punct('{') => {
                let (fields, end) = self.table(depth + 1)?;
                Ok((Value::Table(fields), end))
            }
            TokenKind::Punct('-') => {
                self.advance();
                let number = self.next();
                match number.kind {
                    TokenKind::Int(i) => Ok((Value::Int(i.wrapping_neg()), number.end)),
                    TokenKind::Float(f) => Ok((Value::Float(-f), number.end)),
                    _ => Err((token.start, "expected a number after '-'".into())),
                }
            }
            TokenKind::Str(s) => {
                self.advance();
                Ok((Value::Str(s), token.end))
            }
            TokenKind::Int(i) => {
                self.advance();
                Ok((Value::Int(i), token.end))
            }
            TokenKind::Float(f) => {
                self.advance();
                Ok((Value::Float(f), token.end))
            }
            TokenKind::Name(name) if name == "true" || name == "false" => {
                self.advance();
                Ok((Value::Bool, token.end))
            }
            TokenKind::Name(name) if name == "nil" => {
                self.advance();
                Ok((Value::Nil, token.end))
            }
            TokenKind::Name(name) => Err((
                token.start,
                format!(
                    "'{name}' is a variable or expression: sprite files hold only literal values"
                ),
            )),
            _ => Err((token.start, "expected a value".into())),
        }
    }
}

/// Turns the fields of one `animation{...}` into an entry, recording what is wrong.
fn animation_entry(
    text: &[u8],
    fields: &[Field],
    span: std::ops::Range<usize>,
    problems: &mut Problems,
) -> Entry {
    let mut entry = Entry {
        data: AnimationData {
            name: String::new(),
            src_image: String::new(),
            frame_delay: 0,
            loop_on_frame: -1,
            directions: Vec::new(),
        },
        name_at: span.start,
        loop_at: span.start,
        span: span.clone(),
        direction_at: Vec::new(),
        usable: true,
        extra: EntryExtra::None,
    };
    let before = problems.error_count();
    let fields = last_of_each_key(fields, problems);
    let mut unknown = Vec::new();
    let mut has_name = false;
    let mut has_image = false;
    let mut directions: Option<&Field> = None;
    for field in &fields {
        let Some(key) = &field.key else {
            problems.error(
                field.start,
                "a positional value in animation{...} means nothing",
            );
            continue;
        };
        match key.as_str() {
            "name" => {
                entry.name_at = field.value_at;
                if let Some(name) = string_value(field, problems) {
                    entry.data.name = name;
                    has_name = true;
                }
            }
            "src_image" => {
                if let Some(image) = string_value(field, problems) {
                    entry.data.src_image = image;
                    has_image = true;
                }
            }
            "frame_delay" => {
                if let Some(delay) = integer_value(field, 0, u32::MAX as i64, problems) {
                    entry.data.frame_delay = delay as u32;
                }
            }
            "frame_to_loop_on" => {
                entry.loop_at = field.value_at;
                if let Some(frame) = integer_value(field, -1, i32::MAX as i64, problems) {
                    entry.data.loop_on_frame = frame as i32;
                }
            }
            "directions" => directions = Some(field),
            _ => {
                problems.warning(
                    field.start,
                    format!("unknown field '{key}' (the engine ignores it; Sprat keeps it)"),
                );
                let raw = String::from_utf8_lossy(&text[field.start..field.end]).into_owned();
                unknown.push(raw);
            }
        }
    }
    if !has_name {
        problems.error(span.start, "the animation has no name (name = \"...\")");
    }
    if !has_image {
        problems.error(
            entry.name_at,
            "the animation has no image (src_image = \"...\")",
        );
    }
    match directions {
        None => problems.error(entry.name_at, "the animation has no directions = { ... }"),
        Some(field) => match &field.value {
            Value::Table(list) => {
                for item in list {
                    if item.key.is_some() {
                        problems.error(item.start, "directions must be a list: { {...}, {...} }");
                        continue;
                    }
                    entry.direction_at.push(item.start);
                    if let Some(direction) = direction_data(item, problems) {
                        entry.data.directions.push(direction);
                    }
                }
                if list.is_empty() {
                    problems.error(field.value_at, "the animation has no direction");
                }
            }
            other => problems.error(
                field.value_at,
                format!("directions must be a table, not {}", other.describe()),
            ),
        },
    }
    if !unknown.is_empty() {
        entry.extra = EntryExtra::UnknownFields(unknown);
    }
    entry.usable = problems.error_count() == before;
    entry
}

/// Lua keeps the last value of a repeated key; warn about the earlier ones.
fn last_of_each_key<'a>(fields: &'a [Field], problems: &mut Problems) -> Vec<&'a Field> {
    let mut kept: Vec<&Field> = Vec::new();
    for field in fields {
        if let Some(key) = &field.key
            && let Some(previous) = kept.iter().position(|f| f.key.as_ref() == Some(key))
        {
            problems.warning(
                field.start,
                format!("'{key}' is given twice; the last value counts, as in Lua"),
            );
            kept.remove(previous);
        }
        kept.push(field);
    }
    kept
}

fn string_value(field: &Field, problems: &mut Problems) -> Option<String> {
    match &field.value {
        Value::Str(s) => Some(s.clone()),
        other => {
            problems.error(
                field.value_at,
                format!(
                    "{} must be a string, not {}",
                    field.key.as_deref().unwrap_or("value"),
                    other.describe()
                ),
            );
            None
        }
    }
}

fn integer_value(field: &Field, min: i64, max: i64, problems: &mut Problems) -> Option<i64> {
    let key = field.key.as_deref().unwrap_or("value");
    let value = match &field.value {
        Value::Int(i) => Some(*i),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
        Value::Float(f) => {
            problems.error(
                field.value_at,
                format!("{key} must be a whole number, not {f}"),
            );
            return None;
        }
        other => {
            problems.error(
                field.value_at,
                format!("{key} must be a number, not {}", other.describe()),
            );
            return None;
        }
    }?;
    if value < min || value > max {
        problems.error(
            field.value_at,
            format!("{key} = {value} is out of range ({min} to {max})"),
        );
        return None;
    }
    Some(value)
}

fn direction_data(item: &Field, problems: &mut Problems) -> Option<DirectionData> {
    let Value::Table(fields) = &item.value else {
        problems.error(
            item.start,
            format!("a direction must be a table, not {}", item.value.describe()),
        );
        return None;
    };
    let before = problems.error_count();
    let fields = last_of_each_key(fields, problems);
    let get = |name: &str| fields.iter().find(|f| f.key.as_deref() == Some(name));
    let number =
        |name: &str, min: i64, default: Option<i64>, problems: &mut Problems| match get(name) {
            Some(field) => integer_value(field, min, i32::MAX as i64, problems),
            None if default.is_some() => default,
            None => {
                problems.error(item.start, format!("the direction has no {name}"));
                None
            }
        };
    let min = i32::MIN as i64;
    let x = number("x", min, None, problems);
    let y = number("y", min, None, problems);
    let frame_width = number("frame_width", 1, None, problems);
    let frame_height = number("frame_height", 1, None, problems);
    let origin_x = number("origin_x", min, Some(0), problems);
    let origin_y = number("origin_y", min, Some(0), problems);
    let num_frames = number("num_frames", 1, Some(1), problems);
    let num_columns = match num_frames {
        Some(frames) => number("num_columns", 1, Some(frames), problems),
        None => None,
    };
    for field in &fields {
        match field.key.as_deref() {
            Some(
                "x" | "y" | "frame_width" | "frame_height" | "origin_x" | "origin_y"
                | "num_frames" | "num_columns",
            ) => {}
            Some(other) => problems.warning(
                field.start,
                format!(
                    "unknown direction field '{other}': the engine ignores it, and Sprat drops it if this animation is edited"
                ),
            ),
            None => problems.error(field.start, "a positional value in a direction means nothing"),
        }
    }
    if problems.error_count() != before {
        return None;
    }
    let direction = DirectionData {
        x: x? as i32,
        y: y? as i32,
        frame_width: frame_width? as u32,
        frame_height: frame_height? as u32,
        origin_x: origin_x? as i32,
        origin_y: origin_y? as i32,
        num_frames: num_frames? as u32,
        num_columns: num_columns? as u32,
    };
    super::problems::check_grid(&direction, item.start, problems).then_some(direction)
}
