//! What boa's AST printer needs before the guard prints a policy again
//! (`guard::instrument`): the printer writes a string literal's value, a
//! template's text and a property's key as they are, unescaped. So a policy
//! with `"a\"b"`, `{ 'a b': 1 }` or `` `${'`'}` `` would print as text that
//! does not parse, or parses to another program, one whose code came out of
//! a string and so was never counted. Before printing, every string value is
//! replaced by its escaped spelling (which the parser reads back as the same
//! value), and a key that is not an identifier name becomes a computed key
//! holding the same string (the same key: a property's key is a string).

use boa_engine::ast::expression::literal::{Literal, TemplateElement};
use boa_engine::ast::expression::Expression;
use boa_engine::ast::property::PropertyName;
use boa_engine::ast::visitor::{VisitWith, VisitorMut};
use boa_engine::interner::{Interner, Sym};
use std::ops::ControlFlow;

/// Escapes every string in `node` for the printer, in place.
pub fn quote_strings<N: VisitWith>(node: &mut N, interner: &mut Interner) {
    let _ = node.visit_with_mut(&mut Quoting { interner });
}

struct Quoting<'i> {
    interner: &'i mut Interner,
}

/// Where an escaped value is written: between double quotes, or in a
/// template's text (where `` ` `` and `${` would end it).
#[derive(Clone, Copy, PartialEq)]
enum Within {
    Quotes,
    Template,
}

/// The spelling of UTF-16 `units` that parses back to them: printable ASCII
/// as it is, the rest as `\uXXXX` (a lone surrogate included).
fn escaped(units: &[u16], within: Within) -> String {
    let mut out = String::with_capacity(units.len());
    for &u in units {
        match u {
            0x5c => out.push_str("\\\\"),
            0x22 if within == Within::Quotes => out.push_str("\\\""),
            0x60 | 0x24 if within == Within::Template => {
                out.push('\\');
                out.push(u as u8 as char);
            }
            0x20..=0x7e => out.push(u as u8 as char),
            _ => out.push_str(&format!("\\u{u:04x}")),
        }
    }
    out
}

/// Whether `units` print as themselves as a property key: an ASCII
/// identifier name (reserved words included, as keys allow them).
fn is_identifier_name(units: &[u16]) -> bool {
    let word = |u: u16| matches!(u, 0x24 | 0x5f | 0x30..=0x39 | 0x41..=0x5a | 0x61..=0x7a);
    match units.first() {
        Some(&first) => !(0x30..=0x39).contains(&first) && units.iter().all(|&u| word(u)),
        None => false,
    }
}

impl Quoting<'_> {
    fn escape(&mut self, sym: Sym, within: Within) -> Sym {
        let text = escaped(self.interner.resolve_expect(sym).utf16(), within);
        self.interner.get_or_intern(text.as_str())
    }
}

impl<'ast> VisitorMut<'ast> for Quoting<'_> {
    type BreakTy = ();

    fn visit_literal_mut(&mut self, node: &'ast mut Literal) -> ControlFlow<()> {
        if let Literal::String(sym) = *node {
            *node = Literal::String(self.escape(sym, Within::Quotes));
        }
        ControlFlow::Continue(())
    }

    fn visit_template_element_mut(&mut self, node: &'ast mut TemplateElement) -> ControlFlow<()> {
        match node {
            TemplateElement::String(sym) => *sym = self.escape(*sym, Within::Template),
            TemplateElement::Expr(e) => return e.visit_with_mut(self),
        }
        ControlFlow::Continue(())
    }

    fn visit_property_name_mut(&mut self, node: &'ast mut PropertyName) -> ControlFlow<()> {
        match node {
            PropertyName::Literal(sym) => {
                // Anything that is not an identifier name (a number's key
                // too, "1" or "1e+21") is the same key as a computed string.
                if !is_identifier_name(self.interner.resolve_expect(*sym).utf16()) {
                    let key = self.escape(*sym, Within::Quotes);
                    *node = PropertyName::Computed(Expression::Literal(Literal::String(key)));
                }
                ControlFlow::Continue(())
            }
            PropertyName::Computed(e) => e.visit_with_mut(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn escapes_what_would_end_a_string_or_a_template() {
        assert_eq!(escaped(&units("a\"b\\c\n"), Within::Quotes), "a\\\"b\\\\c\\u000a");
        assert_eq!(escaped(&units("`${x}"), Within::Template), "\\`\\${x}");
        assert_eq!(escaped(&[0xd800], Within::Quotes), "\\ud800");
        assert_eq!(escaped(&units("é"), Within::Quotes), "\\u00e9");
    }

    #[test]
    fn keeps_identifier_names_as_keys() {
        assert!(is_identifier_name(&units("constructor")));
        assert!(is_identifier_name(&units("__proto__")));
        assert!(is_identifier_name(&units("$a_1")));
        assert!(!is_identifier_name(&units("a b")));
        assert!(!is_identifier_name(&units("1a")));
        assert!(!is_identifier_name(&units("")));
    }
}
