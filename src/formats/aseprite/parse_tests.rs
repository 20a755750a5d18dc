//! The parser on hand-made files: each chunk kind read, each error at its byte offset.

use super::super::file::{Out, chunk};
use super::super::scan::TagDirection;
use super::super::sprite::*;
use super::super::test_files::*;
use super::{ParseError, parse};

fn error(bytes: &[u8]) -> ParseError {
    parse(bytes).expect_err("refused")
}

#[test]
fn the_header_is_read_for_every_colour_depth() {
    for (bits, depth) in [
        (32, ColorDepth::Rgba),
        (16, ColorDepth::Grayscale),
        (8, ColorDepth::Indexed),
    ] {
        let sprite = parse(&file(bits, 1, &[vec![]])).unwrap();
        assert_eq!(sprite.header.depth, depth);
        assert_eq!(sprite.header.pixel_ratio, (1, 2));
        assert_eq!(sprite.header.grid, (3, 5, 16, 16));
        assert_eq!(
            sprite.frames[0].duration, 100,
            "the speed stands for a 0 duration"
        );
    }
}

#[test]
fn a_damaged_header_is_refused_where_it_is_damaged() {
    let good = file(32, 1, &[vec![]]);
    assert_eq!(error(&good[..100]).offset, 100);
    let mut bytes = good.clone();
    bytes[4] = 0;
    assert_eq!(error(&bytes).offset, 4);
    let mut bytes = good.clone();
    bytes[12] = 24;
    let refused = error(&bytes);
    assert_eq!(refused.offset, 12);
    assert!(refused.message.contains("colour depth 24"));
    let mut bytes = good.clone();
    bytes[8..10].copy_from_slice(&[0, 0]);
    assert!(error(&bytes).message.contains("0x4 pixels"));
    let mut bytes = good;
    bytes[128 + 4] = 0;
    assert_eq!(error(&bytes).offset, 128 + 4);
}

#[test]
fn a_frame_counts_its_chunks_with_the_new_field_when_set() {
    let mut bytes = file(
        32,
        1,
        &[vec![
            layer(3, 0, 0, 0, 255, &[]),
            layer(3, 0, 0, 0, 255, &[]),
        ]],
    );
    // Old field 1, new field 2: the new one counts.
    bytes[128 + 6..128 + 8].copy_from_slice(&1u16.to_le_bytes());
    bytes[128 + 12..128 + 16].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(parse(&bytes).unwrap().layers.len(), 2);
    bytes[128 + 12..128 + 16].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(parse(&bytes).unwrap().layers.len(), 1);
}

#[test]
fn layers_keep_flags_nesting_and_the_opacity_the_header_validates() {
    let frame = vec![
        layer(
            layer_flags::VISIBLE | layer_flags::BACKGROUND,
            0,
            0,
            3,
            10,
            &[],
        ),
        layer(
            layer_flags::VISIBLE | layer_flags::COLLAPSED,
            1,
            0,
            1,
            20,
            &[],
        ),
        layer(
            layer_flags::REFERENCE | layer_flags::VISIBLE,
            0,
            1,
            2,
            30,
            &[],
        ),
        layer(0, 0, 0, 16, 40, &[]),
    ];
    let sprite = parse(&file(32, 1, std::slice::from_ref(&frame))).unwrap();
    let layers = &sprite.layers;
    assert_eq!(
        (layers[0].opacity, layers[0].effective_blend),
        (255, 0),
        "background"
    );
    assert_eq!(
        (layers[1].opacity, layers[1].effective_blend),
        (255, 0),
        "group"
    );
    assert_eq!(layers[1].kind, LayerKind::Group);
    assert_eq!(layers[2].parent, Some(1));
    assert_eq!((layers[2].opacity, layers[2].effective_blend), (30, 2));
    assert_eq!((layers[3].opacity, layers[3].blend_code), (40, 16));
    assert!(layers[2].has(layer_flags::REFERENCE));
    assert!(
        sprite
            .notes
            .iter()
            .any(|(_, n)| n.contains("reference layer"))
    );
    // Without the opacity flag every layer is opaque; with the group flag groups blend.
    let sprite = parse(&file(32, 0, std::slice::from_ref(&frame))).unwrap();
    assert_eq!(sprite.layers[2].opacity, 255);
    let sprite = parse(&file(32, 3, std::slice::from_ref(&frame))).unwrap();
    assert_eq!(
        (sprite.layers[1].opacity, sprite.layers[1].effective_blend),
        (20, 1)
    );
}

#[test]
fn layers_read_their_uuid_and_tileset() {
    let uuid: Vec<u8> = (1..=16).collect();
    let sprite = parse(&file(32, 5, &[vec![layer(1, 0, 0, 0, 255, &uuid)]])).unwrap();
    assert_eq!(sprite.layers[0].uuid.unwrap().to_vec(), uuid);
    let refused = error(&file(
        32,
        1,
        &[vec![layer(1, 2, 0, 0, 255, &7u32.to_le_bytes())]],
    ));
    assert!(refused.message.contains("tileset 7"), "{}", refused.message);
}

#[test]
fn a_layer_nested_under_no_group_is_refused() {
    let bytes = file(
        32,
        1,
        &[vec![
            layer(1, 0, 0, 0, 255, &[]),
            layer(1, 0, 1, 0, 255, &[]),
        ]],
    );
    let refused = error(&bytes);
    assert!(refused.message.contains("under no group"));
    // The second layer chunk starts at 128 + 16 + the first chunk; the level is 4 bytes in.
    assert_eq!(refused.offset, 128 + 16 + 25 + 6 + 4);
    let unknown = error(&file(32, 1, &[vec![layer(1, 9, 0, 0, 255, &[])]]));
    assert!(unknown.message.contains("unknown type 9"));
}

#[test]
fn image_cels_raw_and_compressed_are_read() {
    let pixels: Vec<u8> = (0..2 * 3 * 4).map(|v| v as u8).collect();
    for compressed in [false, true] {
        let frame = vec![
            layer(1, 0, 0, 0, 255, &[]),
            image_cel(0, compressed, (2, 3), &pixels),
        ];
        let sprite = parse(&file(32, 1, &[frame])).unwrap();
        let cel = &sprite.cels[0];
        assert_eq!((cel.x, cel.y, cel.opacity, cel.z_index), (1, -2, 200, 1));
        let CelContent::Image(image) = &cel.content else {
            panic!("{:?}", cel.content)
        };
        assert_eq!((image.width, image.height, &image.data), (2, 3, &pixels));
    }
}

#[test]
fn damaged_cels_are_refused_at_their_chunk() {
    let base = || vec![layer(1, 0, 0, 0, 255, &[])];
    let cel_at = 128 + 16 + 25 + 6;
    let mut frame = base();
    frame.push(image_cel(3, false, (1, 1), &[0; 4]));
    let refused = error(&file(32, 1, &[frame]));
    assert!(refused.message.contains("layer 3"));
    assert_eq!(refused.offset, cel_at);
    let mut frame = base();
    frame.push(image_cel(0, false, (2, 2), &[0; 4]));
    assert!(error(&file(32, 1, &[frame])).message.contains("fewer than"));
    let mut frame = base();
    frame.push(image_cel(0, true, (2, 2), &[0; 4]));
    assert!(error(&file(32, 1, &[frame])).message.contains("fewer than"));
    let mut frame = base();
    frame.push(image_cel(0, true, (65535, 65535), &[0; 4]));
    let refused = error(&file(32, 1, &[frame]));
    assert!(
        refused.message.contains("65535x65535 cel needs"),
        "{}",
        refused.message
    );
    let mut frame = base();
    let mut tiles = cel_fields(0, 0, 0, 255, 3, 0);
    tiles.zeros(32);
    frame.push(chunk(CEL, &tiles.0));
    assert!(
        error(&file(32, 1, &[frame]))
            .message
            .contains("not a tilemap layer")
    );
    let mut frame = base();
    frame.push(chunk(CEL, &cel_fields(0, 0, 0, 255, 9, 0).0));
    assert!(
        error(&file(32, 1, &[frame]))
            .message
            .contains("unknown type 9")
    );
}

#[test]
fn linked_cels_show_the_cel_they_link_to() {
    let first = vec![
        layer(1, 0, 0, 0, 255, &[]),
        image_cel(0, true, (1, 1), &[1, 2, 3, 4]),
    ];
    let mut link = cel_fields(0, 5, 6, 100, 1, 0);
    link.word(0);
    let second = vec![chunk(CEL, &link.0)];
    let mut link = cel_fields(0, 5, 6, 100, 1, 0);
    link.word(1);
    let third = vec![chunk(CEL, &link.0)];
    let sprite = parse(&file(32, 1, &[first, second, third])).unwrap();
    assert_eq!(sprite.cels[1].content, CelContent::Linked(0));
    assert_eq!(
        sprite.cels[2].content,
        CelContent::Linked(0),
        "a link to a link"
    );
    assert_eq!((sprite.cels[2].x, sprite.cels[2].opacity), (5, 100));
    let mut link = cel_fields(0, 0, 0, 255, 1, 0);
    link.word(999);
    let bytes = file(
        32,
        1,
        &[vec![layer(1, 0, 0, 0, 255, &[]), chunk(CEL, &link.0)]],
    );
    assert!(error(&bytes).message.contains("frame 999"));
}

#[test]
fn tilesets_and_tilemap_cels_are_read_with_their_masks() {
    let pixels = [0u8; 2 * 3 * 4];
    let frame = vec![
        tileset_chunk(0, 3, &pixels),
        layer(1, 0, 0, 0, 255, &[]),
        layer(1, 2, 0, 0, 255, &0u32.to_le_bytes()),
        tilemap_cel(1, 2, &[2, 0x2000_0001]),
    ];
    let sprite = parse(&file(32, 1, &[frame])).unwrap();
    let tileset = &sprite.tilesets[0];
    assert_eq!(
        (tileset.count, tileset.tile_width, tileset.tile_height),
        (3, 2, 1)
    );
    assert_eq!(tileset.external, Some((3, 8)));
    assert_eq!(tileset.pixels.as_deref(), Some(&pixels[..]));
    assert_eq!(sprite.layers[1].kind, LayerKind::Tilemap { tileset: 0 });
    let CelContent::Tilemap(map) = &sprite.cels[0].content else {
        panic!()
    };
    assert_eq!(map.tiles, [2, 0x2000_0001]);
    assert_eq!(
        (map.id_mask, map.x_flip, map.d_flip),
        (0x1fff_ffff, 0x2000_0000, 0x8000_0000)
    );
}

#[test]
fn a_tileset_of_forged_size_is_refused_before_anything_is_reserved() {
    let bytes = file(32, 1, &[vec![tileset_chunk(0, u32::MAX, &[0; 8])]]);
    let refused = error(&bytes);
    assert!(
        refused.message.contains("4294967295 2x1 tiles needs"),
        "{}",
        refused.message
    );
}

#[test]
fn palettes_new_and_old_are_read_from_their_frame_on() {
    let mut new = Out::default();
    new.dword(3);
    new.dword(1);
    new.dword(2);
    new.zeros(8);
    new.word(0);
    new.0.extend_from_slice(&[10, 20, 30, 40]);
    new.word(1);
    new.0.extend_from_slice(&[50, 60, 70, 80]);
    new.string("named");
    let mut old = Out::default();
    old.word(1);
    old.byte(1);
    old.byte(1);
    old.0.extend_from_slice(&[63, 32, 0]);
    let sprite = parse(&file(8, 1, &[vec![chunk(0x0011, &old.0)]])).unwrap();
    assert_eq!(
        sprite.palette(0)[1],
        [255, 130, 0, 255],
        "6-bit channels scaled"
    );
    let frames = [vec![chunk(PALETTE, &new.0)], vec![chunk(0x0004, &old.0)]];
    let sprite = parse(&file(8, 1, &frames)).unwrap();
    assert_eq!(
        sprite.palette(1)[1],
        [10, 20, 30, 40],
        "old chunks ignored after a new one"
    );
    assert_eq!(sprite.palette(0)[2], [50, 60, 70, 80]);
    let mut bad = Out::default();
    bad.dword(3);
    bad.dword(2);
    bad.dword(5);
    bad.zeros(8);
    let refused = error(&file(8, 1, &[vec![chunk(PALETTE, &bad.0)]]));
    assert!(refused.message.contains("entries 2 to 5"));
}

#[test]
fn tags_and_their_user_data_are_read() {
    let mut tags = Out::default();
    tags.word(2);
    tags.zeros(8);
    for (direction, name) in [(3u8, "run"), (2, "idle")] {
        tags.word(0);
        tags.word(1);
        tags.byte(direction);
        tags.word(4);
        tags.zeros(6);
        tags.0.extend_from_slice(&[9, 8, 7]);
        tags.byte(0);
        tags.string(name);
    }
    let frame = vec![
        chunk(TAGS, &tags.0),
        user_data_chunk(3, "first", &[]),
        user_data_chunk(2, "", &[]),
    ];
    let sprite = parse(&file(32, 1, &[frame, vec![]])).unwrap();
    let run = &sprite.tags[0];
    assert_eq!(
        (run.direction, run.repeat, run.color, run.name.as_str()),
        (TagDirection::PingPongReverse, 4, [9, 8, 7], "run")
    );
    assert_eq!(
        run.user_data.as_ref().unwrap().text.as_deref(),
        Some("first")
    );
    assert_eq!(
        sprite.tags[1].user_data.as_ref().unwrap().color,
        Some([1, 2, 3, 4])
    );
    let mut bad = tags.0.clone();
    bad[10 + 4] = 7;
    let refused = error(&file(32, 1, &[vec![chunk(TAGS, &bad)]]));
    assert!(refused.message.contains("unknown tag direction 7"));
    assert_eq!(refused.offset, 128 + 16 + 6 + 14);
}

/// One properties map holding a bool, a string, a vector of two int16 and a nested map.
fn properties() -> Vec<u8> {
    let mut out = Out::default();
    out.dword(1);
    out.dword(0);
    out.dword(4);
    out.string("flag");
    out.word(1);
    out.byte(1);
    out.string("text");
    out.word(0x0D);
    out.string("hello");
    out.string("list");
    out.word(0x11);
    out.dword(2);
    out.word(4);
    out.word(1);
    out.word(2);
    out.string("map");
    out.word(0x12);
    out.dword(1);
    out.string("point");
    out.word(0x0E);
    out.dword(1);
    out.dword(2);
    out.0
}

#[test]
fn sprite_user_data_follows_the_first_palette_with_its_properties() {
    let mut palette = Out::default();
    palette.dword(1);
    palette.dword(0);
    palette.dword(0);
    palette.zeros(8);
    palette.word(0);
    palette.0.extend_from_slice(&[0, 0, 0, 255]);
    let frame = vec![
        chunk(PALETTE, &palette.0),
        user_data_chunk(7, "sprite", &properties()),
    ];
    let sprite = parse(&file(32, 1, &[frame])).unwrap();
    let user = sprite.user_data.unwrap();
    assert_eq!(user.text.as_deref(), Some("sprite"));
    assert_eq!(user.properties, Some((1, properties())));
    // Damaged properties: an unknown type, a size past the chunk.
    let mut bad = properties();
    let at = bad.windows(4).position(|w| w == b"flag").unwrap() + 4;
    bad[at] = 0x40;
    let refused = error(&file(32, 1, &[vec![user_data_chunk(4, "", &bad)]]));
    assert!(
        refused.message.contains("unknown type 64"),
        "{}",
        refused.message
    );
    let mut long = user_data_chunk(4, "", &properties());
    long[10] = 0xFF;
    assert!(
        error(&file(32, 1, &[vec![long]]))
            .message
            .contains("more than the chunk holds")
    );
}

#[test]
fn properties_nested_past_128_levels_are_refused() {
    let mut nested = Out::default();
    nested.dword(1);
    nested.dword(0);
    nested.dword(1);
    for _ in 0..200 {
        nested.string("");
        nested.word(0x12);
        nested.dword(1);
    }
    let refused = error(&file(32, 1, &[vec![user_data_chunk(4, "", &nested.0)]]));
    assert!(refused.message.contains("deeper than 128"));
}

#[test]
fn slices_keep_their_nine_patch_and_pivot() {
    let mut out = Out::default();
    out.dword(1);
    out.dword(3);
    out.dword(0);
    out.string("hit");
    for value in [2u32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
        out.dword(value);
    }
    let frame = vec![chunk(SLICE, &out.0), user_data_chunk(1, "box", &[])];
    let sprite = parse(&file(32, 1, &[frame])).unwrap();
    let slice = &sprite.slices[0];
    let key = &slice.keys[0];
    assert_eq!((key.frame, key.origin, key.size), (2, (1, 2), (3, 4)));
    assert_eq!((key.center, key.pivot), (Some((5, 6, 7, 8)), Some((9, 10))));
    assert_eq!(
        slice.user_data.as_ref().unwrap().text.as_deref(),
        Some("box")
    );
    let short = chunk(SLICE, &out.0[..out.0.len() - 4]);
    let refused = error(&file(32, 1, &[vec![short]]));
    assert!(
        refused.message.contains("slice chunk ends"),
        "{}",
        refused.message
    );
}

#[test]
fn cel_extra_colour_profile_and_external_files_are_read() {
    let mut extra = Out::default();
    extra.dword(1);
    for value in [1i32, 2, 3, 4] {
        extra.long(value << 16);
    }
    extra.zeros(16);
    let mut profile = Out::default();
    profile.word(2);
    profile.word(1);
    profile.long(1 << 16);
    profile.zeros(8);
    profile.dword(3);
    profile.0.extend_from_slice(&[1, 2, 3]);
    let mut external = Out::default();
    external.dword(1);
    external.zeros(8);
    external.dword(3);
    external.byte(1);
    external.zeros(7);
    external.string("tiles.aseprite");
    let frame = vec![
        chunk(PROFILE, &profile.0),
        chunk(EXTERNAL, &external.0),
        layer(1, 0, 0, 0, 255, &[]),
        image_cel(0, false, (1, 1), &[0; 4]),
        chunk(CEL_EXTRA, &extra.0),
        user_data_chunk(1, "cel", &[]),
    ];
    let sprite = parse(&file(32, 1, &[frame])).unwrap();
    assert_eq!(sprite.cels[0].extra.as_ref().unwrap().bounds[3], 4 << 16);
    assert_eq!(
        sprite.cels[0].user_data.as_ref().unwrap().text.as_deref(),
        Some("cel")
    );
    let profile = sprite.color_profile.unwrap();
    assert_eq!((profile.kind, profile.icc_length), (2, Some(3)));
    assert_eq!(
        sprite.notes.len(),
        2,
        "ICC and gamma not applied: {:?}",
        sprite.notes
    );
    assert_eq!(sprite.external_files[0].name, "tiles.aseprite");
}

#[test]
fn a_chunk_past_its_frame_or_the_file_is_refused_at_the_chunk() {
    let bytes = file(32, 1, &[vec![layer(1, 0, 0, 0, 255, &[])]]);
    let mut longer = bytes.clone();
    longer[144..148].copy_from_slice(&1000u32.to_le_bytes());
    let refused = error(&longer);
    assert_eq!(refused.offset, 144);
    let mut tiny = bytes;
    tiny[144..148].copy_from_slice(&2u32.to_le_bytes());
    assert!(error(&tiny).message.contains("declares 2 bytes"));
}

#[test]
fn a_tilemap_of_an_unknown_tile_size_is_refused() {
    let mut cel = tilemap_cel(1, 1, &[1]);
    // The bits-per-tile field: 6 (chunk header) + 16 (cel fields) + 4 (width, height).
    cel[26..28].copy_from_slice(&12u16.to_le_bytes());
    let frame = vec![
        tileset_chunk(0, 2, &[0; 16]),
        layer(1, 0, 0, 0, 255, &[]),
        layer(1, 2, 0, 0, 255, &0u32.to_le_bytes()),
        cel,
    ];
    let refused = error(&file(32, 1, &[frame]));
    assert!(
        refused.message.contains("12 bits per tile"),
        "{}",
        refused.message
    );
}

#[test]
fn deprecated_and_unknown_chunks_are_skipped() {
    // A mask (0x2016), a path (0x2017) and a chunk kind the specification does not list.
    let frame = vec![
        chunk(0x2016, &[0xFF; 20]),
        chunk(0x2017, &[]),
        chunk(0x7777, &[1, 2, 3]),
        layer(1, 0, 0, 0, 255, &[]),
    ];
    assert_eq!(parse(&file(32, 1, &[frame])).unwrap().layers.len(), 1);
}

#[test]
fn a_tileset_kept_in_another_file_is_named_in_a_note() {
    let mut external = Out::default();
    external.dword(1);
    external.zeros(8);
    external.dword(3);
    external.byte(1);
    external.zeros(7);
    external.string("tiles.aseprite");
    let mut tileset = tileset_chunk(0, 2, &[0; 16]);
    // Flags: external (1) and empty tile 0 (4), no tiles inside; cut the tiles off.
    tileset[10..14].copy_from_slice(&5u32.to_le_bytes());
    let name_end = 6 + 32 + 2 + "tiles".len();
    tileset.truncate(name_end + 8);
    let size = tileset.len() as u32;
    tileset[0..4].copy_from_slice(&size.to_le_bytes());
    let sprite = parse(&file(32, 1, &[vec![chunk(EXTERNAL, &external.0), tileset]])).unwrap();
    assert_eq!(sprite.tilesets[0].pixels, None);
    assert_eq!(sprite.tilesets[0].external, Some((3, 8)));
    let (_, note) = &sprite.notes[0];
    assert!(note.contains("\"tiles.aseprite\""), "{note}");
}
