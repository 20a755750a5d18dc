//! Tokens of the Lua subset a Solarus sprite file uses: names, strings with every Lua escape,
//! numbers as Lua writes them, punctuation; comments (`--`, `--[[ ]]`, `--[==[ ]==]`) and
//! spacing are skipped but stay in the file's bytes, which the writer keeps.

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its first byte.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

/// The kinds of token.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier or keyword.
    Name(String),
    /// A string, escapes resolved.
    Str(String),
    /// An integer that fits in 64 bits.
    Int(i64),
    /// Any other number.
    Float(f64),
    /// One ASCII punctuation character (`{ } ( ) [ ] = , ; -` are the ones a sprite uses).
    Punct(char),
    /// The end of the input.
    End,
}

/// A lexical error: a byte offset and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Where it is.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

fn error<T>(at: usize, message: impl Into<String>) -> Result<T, LexError> {
    Err(LexError {
        at,
        message: message.into(),
    })
}

/// Splits `text` into tokens, ending with [`TokenKind::End`] (the lexer's own tests).
#[cfg(test)]
pub fn tokenize(text: &[u8]) -> Result<Vec<Token>, LexError> {
    let mut stream = TokenStream::new(text);
    // Sprite files run about one token per five bytes; one allocation covers most of them.
    let mut tokens = Vec::with_capacity(text.len() / 5 + 1);
    loop {
        let token = stream.next_token()?;
        let end = token.kind == TokenKind::End;
        tokens.push(token);
        if end {
            return Ok(tokens);
        }
    }
}

/// The first lexical error of `text`, if any, found without holding its tokens.
pub fn check_tokens(text: &[u8]) -> Result<(), LexError> {
    let mut stream = TokenStream::new(text);
    while stream.next_token()?.kind != TokenKind::End {}
    Ok(())
}

/// The tokens of `text` one at a time, so a reader holds a few of them rather than the whole
/// file's (a token takes about ten times the bytes it spells); after the last,
/// [`TokenKind::End`] again and again.
pub struct TokenStream<'a> {
    lexer: Lexer<'a>,
}

impl<'a> TokenStream<'a> {
    /// The tokens of `text`, from its start.
    pub fn new(text: &'a [u8]) -> TokenStream<'a> {
        TokenStream {
            lexer: Lexer { text, pos: 0 },
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        let lexer = &mut self.lexer;
        let text = lexer.text;
        lexer.skip_trivia()?;
        let start = lexer.pos;
        let Some(&byte) = text.get(start) else {
            return Ok(Token {
                kind: TokenKind::End,
                start,
                end: start,
            });
        };
        let kind = match byte {
            b'"' | b'\'' => TokenKind::Str(lexer.quoted_string(byte)?),
            b'[' if lexer.long_bracket_level(start).is_some() => {
                TokenKind::Str(lexer.long_bracket(start)?)
            }
            b'0'..=b'9' => lexer.number()?,
            b'.' if text.get(start + 1).is_some_and(u8::is_ascii_digit) => lexer.number()?,
            // Every other ASCII punctuation is a token too, so the parser can say which
            // construct is not allowed where it starts.
            b if b.is_ascii_punctuation() => {
                lexer.pos += 1;
                TokenKind::Punct(byte as char)
            }
            b if b == b'_' || b.is_ascii_alphabetic() => {
                while text
                    .get(lexer.pos)
                    .is_some_and(|b| *b == b'_' || b.is_ascii_alphanumeric())
                {
                    lexer.pos += 1;
                }
                TokenKind::Name(String::from_utf8_lossy(&text[start..lexer.pos]).into_owned())
            }
            _ => {
                let shown = std::str::from_utf8(&text[start..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or_else(|| format!("byte 0x{byte:02x}"), |c| format!("'{c}'"));
                return error(
                    start,
                    format!("unexpected {shown}: a sprite file holds only animation{{...}} calls"),
                );
            }
        };
        Ok(Token {
            kind,
            start,
            end: lexer.pos,
        })
    }
}

struct Lexer<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    fn peek(&self, offset: usize) -> Option<u8> {
        self.text.get(self.pos + offset).copied()
    }

    /// Skips spaces and comments.
    fn skip_trivia(&mut self) -> Result<(), LexError> {
        loop {
            match self.peek(0) {
                Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c') => self.pos += 1,
                Some(b'-') if self.peek(1) == Some(b'-') => {
                    let start = self.pos;
                    self.pos += 2;
                    if self.peek(0) == Some(b'[') && self.long_bracket_level(self.pos).is_some() {
                        self.long_bracket(self.pos).map_err(|_| LexError {
                            at: start,
                            message: "this long comment is never closed".to_string(),
                        })?;
                    } else {
                        while self.peek(0).is_some_and(|b| b != b'\n') {
                            self.pos += 1;
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The level of a long bracket opening at `at` (`[[` = 0, `[==[` = 2).
    fn long_bracket_level(&self, at: usize) -> Option<usize> {
        let rest = self.text.get(at..)?;
        if rest.first() != Some(&b'[') {
            return None;
        }
        let equals = rest[1..].iter().take_while(|&&b| b == b'=').count();
        (rest.get(1 + equals) == Some(&b'[')).then_some(equals)
    }

    /// Reads a long bracket (string or comment body) starting at `at`.
    fn long_bracket(&mut self, at: usize) -> Result<String, LexError> {
        let level = self.long_bracket_level(at).unwrap_or(0);
        let mut body_start = at + level + 2;
        // A newline right after the opening bracket is not part of the string.
        if self.text.get(body_start) == Some(&b'\r') {
            body_start += 1;
        }
        if self.text.get(body_start) == Some(&b'\n') {
            body_start += 1;
        }
        let mut closing = Vec::with_capacity(level + 2);
        closing.push(b']');
        closing.extend(std::iter::repeat_n(b'=', level));
        closing.push(b']');
        let body = &self.text[body_start.min(self.text.len())..];
        match body.windows(closing.len()).position(|w| w == closing) {
            Some(found) => {
                self.pos = body_start + found + closing.len();
                Ok(String::from_utf8_lossy(&body[..found]).into_owned())
            }
            None => error(at, "this long string is never closed"),
        }
    }

    fn quoted_string(&mut self, quote: u8) -> Result<String, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(byte) = self.peek(0) else {
                return error(start, "this string is never closed");
            };
            self.pos += 1;
            match byte {
                b if b == quote => break,
                b'\n' => return error(start, "this string is not closed before the line ends"),
                b'\\' => self.escape(&mut bytes)?,
                other => bytes.push(other),
            }
        }
        String::from_utf8(bytes).or_else(|_| error(start, "this string is not valid UTF-8"))
    }

    /// Reads one escape sequence (the backslash is already consumed).
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), LexError> {
        let at = self.pos - 1;
        let Some(byte) = self.peek(0) else {
            return error(at, "the string ends in the middle of an escape");
        };
        self.pos += 1;
        match byte {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' | b'"' | b'\'' => out.push(byte),
            b'\n' => {
                out.push(b'\n');
                if self.peek(0) == Some(b'\r') {
                    self.pos += 1;
                }
            }
            b'\r' => {
                out.push(b'\n');
                if self.peek(0) == Some(b'\n') {
                    self.pos += 1;
                }
            }
            b'z' => {
                while self.peek(0).is_some_and(|b| b.is_ascii_whitespace()) {
                    self.pos += 1;
                }
            }
            b'x' => {
                let digits = self.text.get(self.pos..self.pos + 2).unwrap_or_default();
                let value = std::str::from_utf8(digits)
                    .ok()
                    .filter(|d| d.len() == 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok());
                match value {
                    Some(v) => {
                        out.push(v);
                        self.pos += 2;
                    }
                    None => return error(at, "\\x must be followed by two hexadecimal digits"),
                }
            }
            b'0'..=b'9' => {
                let mut value: u32 = (byte - b'0') as u32;
                for _ in 0..2 {
                    match self.peek(0) {
                        Some(d @ b'0'..=b'9') => {
                            value = value * 10 + (d - b'0') as u32;
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                match u8::try_from(value) {
                    Ok(v) => out.push(v),
                    Err(_) => return error(at, format!("escape \\{value} is larger than 255")),
                }
            }
            b'u' => {
                let close = (self.peek(0) == Some(b'{'))
                    .then(|| {
                        self.text[self.pos..]
                            .iter()
                            .take(10)
                            .position(|&b| b == b'}')
                    })
                    .flatten();
                let value = close.and_then(|close| {
                    std::str::from_utf8(&self.text[self.pos + 1..self.pos + close])
                        .ok()
                        .and_then(|d| u32::from_str_radix(d, 16).ok())
                        .and_then(char::from_u32)
                        .map(|c| (c, close))
                });
                match value {
                    Some((c, close)) => {
                        let mut buffer = [0; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                        self.pos += close + 1;
                    }
                    None => return error(at, "\\u must be followed by {hexadecimal code point}"),
                }
            }
            _ => return error(at, format!("unknown escape \\{}", byte as char)),
        }
        Ok(())
    }

    fn number(&mut self) -> Result<TokenKind, LexError> {
        let start = self.pos;
        let hex = self.peek(0) == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X'));
        if hex {
            self.pos += 2;
        }
        loop {
            match self.peek(0) {
                Some(b) if b.is_ascii_hexdigit() && (hex || b.is_ascii_digit()) => self.pos += 1,
                Some(b'.') => self.pos += 1,
                Some(b'e' | b'E') if !hex => {
                    self.pos += 1;
                    if matches!(self.peek(0), Some(b'+' | b'-')) {
                        self.pos += 1;
                    }
                }
                Some(b'p' | b'P') if hex => {
                    self.pos += 1;
                    if matches!(self.peek(0), Some(b'+' | b'-')) {
                        self.pos += 1;
                    }
                }
                Some(b) if b == b'_' || b.is_ascii_alphanumeric() => {
                    return error(start, "malformed number");
                }
                _ => break,
            }
        }
        let bytes = &self.text[start..self.pos];
        // Nearly every number in a sprite file is a short decimal integer.
        if bytes.len() <= 18 && bytes.iter().all(u8::is_ascii_digit) {
            let value = bytes
                .iter()
                .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
            return Ok(TokenKind::Int(value));
        }
        let text = std::str::from_utf8(bytes).unwrap_or("");
        parse_number(text).ok_or_else(|| LexError {
            at: start,
            message: format!("malformed number '{text}'"),
        })
    }
}

/// A Lua numeral: decimal or hexadecimal integer (hexadecimal wraps like Lua's), or a float.
fn parse_number(text: &str) -> Option<TokenKind> {
    if let Some(digits) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            // Hexadecimal floats never appear in sprite files; they are refused, not guessed.
            return None;
        }
        let mut value: u64 = 0;
        for digit in digits.bytes() {
            value = value
                .wrapping_mul(16)
                .wrapping_add((digit as char).to_digit(16)? as u64);
        }
        return Some(TokenKind::Int(value as i64));
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(match text.parse::<i64>() {
            Ok(v) => TokenKind::Int(v),
            Err(_) => TokenKind::Float(text.parse::<f64>().ok()?),
        });
    }
    text.parse::<f64>().ok().map(TokenKind::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(text.as_bytes())
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn comments_and_spacing_are_skipped() {
        assert_eq!(
            kinds("-- line\n--[==[ long\n ]] still ]==] x --[[a]] = 1"),
            vec![
                TokenKind::Name("x".into()),
                TokenKind::Punct('='),
                TokenKind::Int(1),
                TokenKind::End
            ]
        );
    }

    #[test]
    fn strings_resolve_every_escape() {
        assert_eq!(
            kinds(
                r#""a\"b\\c\n\65\x42\u{e9}\z   d" 'it''s' [[x]] [=[
y]=]"#
            ),
            vec![
                TokenKind::Str("a\"b\\c\nAB\u{e9}d".into()),
                TokenKind::Str("it".into()),
                TokenKind::Str("s".into()),
                TokenKind::Str("x".into()),
                TokenKind::Str("y".into()),
                TokenKind::End
            ]
        );
    }

    #[test]
    fn numbers_as_lua_writes_them() {
        assert_eq!(
            kinds("100 0x10 1.5 2e2 .5"),
            vec![
                TokenKind::Int(100),
                TokenKind::Int(16),
                TokenKind::Float(1.5),
                TokenKind::Float(200.0),
                TokenKind::Float(0.5),
                TokenKind::End
            ]
        );
    }

    #[test]
    fn errors_point_at_the_offending_byte() {
        assert_eq!(tokenize(b"x = \"open").unwrap_err().at, 4);
        assert_eq!(tokenize(b"x = 12abc").unwrap_err().at, 4);
        assert_eq!(tokenize(b"--[[ never").unwrap_err().at, 0);
        assert_eq!(tokenize("a = é".as_bytes()).unwrap_err().at, 4);
    }
}
