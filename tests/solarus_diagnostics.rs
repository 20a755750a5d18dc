//! Diagnostics on broken copies of real Solarus files (changed in memory, never on disk):
//! every problem is reported with its line and column and a plain message.

mod common;

use sprat::formats::solarus::{SolarusLegacyFormat, SolarusLuaFormat};
use sprat::formats::{Diagnostic, Format, Location, ReadContext, Severity};

fn corpus_text(relative: &str) -> String {
    std::fs::read_to_string(common::corpus().join("solarus").join(relative)).unwrap()
}

fn diagnostics(format: &dyn Format, text: &str) -> Vec<Diagnostic> {
    match format.read(text.as_bytes(), &ReadContext::default()) {
        Ok(loaded) => loaded.diagnostics,
        Err(failure) => failure.diagnostics,
    }
}

/// The (line, column, message) of every diagnostic of a severity.
fn found(list: &[Diagnostic], severity: Severity) -> Vec<(u32, u32, String)> {
    list.iter()
        .filter(|d| d.severity == severity)
        .map(|d| match d.location {
            Location::Text { line, column } => (line, column, d.message.clone()),
            other => panic!("not a text location: {other:?}"),
        })
        .collect()
}

/// Line and column (from 1) of the first occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() as u32 + 1;
    (line, column)
}

#[test]
fn too_few_direction_lines() {
    let text = corpus_text("dat-0.9/sprites/hero/tunic1.dat");
    // Drop the last direction line of the first animation.
    let mut lines: Vec<&str> = text.split('\n').collect();
    lines.remove(4);
    let broken = lines.join("\n");
    let errors = found(&diagnostics(&SolarusLegacyFormat, &broken), Severity::Error);
    assert_eq!(errors.len(), 1, "{errors:?}");
    // At the nb_directions of the header line (its third token).
    let header = lines[0];
    let name_and_image = header.split(' ').take(2).map(str::len).sum::<usize>() + 2;
    assert_eq!((errors[0].0, errors[0].1), (1, name_and_image as u32 + 1));
    assert!(errors[0].2.contains("too few direction lines"));
    assert!(errors[0].2.contains("declares 4 directions but 3 follow"));
}

#[test]
fn bad_numbers_in_a_direction_line() {
    let text = corpus_text("zsd/sprites/hero/sword1.zsd");
    let first_direction = text.lines().nth(1).unwrap();
    let broken_line = first_direction.replacen('\t', "\tx", 1);
    let broken = text.replacen(first_direction, &broken_line, 1);
    let errors = found(&diagnostics(&SolarusLegacyFormat, &broken), Severity::Error);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let column = first_direction.find('\t').unwrap() as u32 + 2;
    assert_eq!((errors[0].0, errors[0].1), (2, column));
    assert!(
        errors[0].2.starts_with("bad number for y:"),
        "{}",
        errors[0].2
    );
}

#[test]
fn duplicate_animation_names() {
    let text = corpus_text("lua-1.x/zsdx/sprites/enemies/khorneth.dat");
    let second = text.match_indices("name = \"").nth(1).unwrap().0;
    let first_name = text[text.find("name = \"").unwrap() + 8..]
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let second_name = text[second + 8..].split('"').next().unwrap().to_string();
    let broken = format!(
        "{}{}",
        &text[..second],
        text[second..].replacen(&second_name, &first_name, 1)
    );
    let errors = found(&diagnostics(&SolarusLuaFormat, &broken), Severity::Error);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (line, column) = position_of(&broken[second..], "\"");
    let before_lines = broken[..second].matches('\n').count() as u32;
    assert_eq!(errors[0].0, before_lines + line);
    assert_eq!(
        errors[0].1,
        column + (second - broken[..second].rfind('\n').unwrap() - 1) as u32
    );
    assert!(
        errors[0]
            .2
            .contains(&format!("duplicate animation name '{first_name}'"))
    );
}

#[test]
fn loop_frame_out_of_range() {
    let text = corpus_text("lua-1.x/zsdx/sprites/hero/tunic1.dat");
    let broken = text.replacen("frame_to_loop_on = 0", "frame_to_loop_on = 99", 1);
    let errors = found(&diagnostics(&SolarusLuaFormat, &broken), Severity::Error);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (line, column) = position_of(&broken, "99");
    assert_eq!((errors[0].0, errors[0].1), (line, column));
    assert!(errors[0].2.contains("loop frame 99 is out of range"));
}

#[test]
fn the_2008_nine_field_variant_is_named() {
    let text = corpus_text("zsd/sprites/enemies/khorneth.zsd");
    let first_direction = text.lines().nth(1).unwrap();
    let broken = text.replacen(first_direction, &format!("{first_direction}\t2"), 1);
    let list = diagnostics(&SolarusLegacyFormat, &broken);
    assert!(found(&list, Severity::Error).is_empty());
    let warnings = found(&list, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].0, 2);
    assert_eq!(warnings[0].1 as usize, first_direction.chars().count() + 2);
    assert!(warnings[0].2.contains("2008"));
    assert!(warnings[0].2.contains("ignores the ninth"));
}

#[test]
fn lua_syntax_errors_stop_the_read_with_their_place() {
    let text = corpus_text("lua-1.x/children-of-solarus/sprites/entities/door_normal.dat");
    let broken = text.replacen("frame_width = ", "frame_width = = ", 1);
    let result = SolarusLuaFormat.read(broken.as_bytes(), &ReadContext::default());
    let failure = result.unwrap_err();
    let errors = found(&failure.diagnostics, Severity::Error);
    let (line, column) = position_of(&broken, "= = ");
    assert_eq!((errors[0].0, errors[0].1), (line, column + 2));
    assert_eq!(errors[0].2, "expected a value");
}

#[test]
fn a_lua_file_that_runs_code_is_refused_not_run() {
    let text = corpus_text("lua-1.x/zsdx/sprites/hud/magic_bar.dat");
    let broken = format!("os.execute(\"rm -rf /\")\n{text}");
    let failure = SolarusLuaFormat
        .read(broken.as_bytes(), &ReadContext::default())
        .unwrap_err();
    let errors = found(&failure.diagnostics, Severity::Error);
    assert_eq!((errors[0].0, errors[0].1), (1, 1));
    assert!(errors[0].2.contains("expected an animation{...} call"));
}

#[test]
fn a_missing_image_is_a_warning_with_the_path_looked_at() {
    let path = common::corpus().join("solarus/dat-0.9/sprites/npc/zelda.dat");
    let text = std::fs::read_to_string(&path).unwrap();
    let image = text.split_whitespace().nth(1).unwrap().to_string();
    let broken = text.replace(&image, "npc/no_such_image.png");
    let loaded = SolarusLegacyFormat
        .read(broken.as_bytes(), &ReadContext::for_path(&path))
        .unwrap();
    let warnings = found(&loaded.diagnostics, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!((warnings[0].0, warnings[0].1), (1, 1));
    assert!(warnings[0].2.contains("npc/no_such_image.png"));
}
