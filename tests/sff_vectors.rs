//! Archives built byte by byte from the text of sff-format.md: the codecs no corpus file uses
//! (RLE5, raw), palettes, links, and headers that lie.

use sprat::formats::Location;
use sprat::formats::sff::{Palette, PaletteChoice, SffArchive, SpriteFormat};

// ---------------------------------------------------------------------------------------------
// SFF v2 builder
// ---------------------------------------------------------------------------------------------

struct V2Palette {
    group: u16,
    item: u16,
    /// RGBA colours; empty = linked to palette `link`.
    colours: Vec<[u8; 4]>,
    link: u16,
}

struct V2Sprite {
    group: u16,
    item: u16,
    size: (u16, u16),
    axis: (i16, i16),
    link: u16,
    format: u8,
    /// Stored bytes (with the u32 length prefix for every format but raw); empty = linked.
    data: Vec<u8>,
    palette: u16,
    in_tdata: bool,
}

fn sprite(group: u16, item: u16, size: (u16, u16), format: u8, data: Vec<u8>) -> V2Sprite {
    V2Sprite {
        group,
        item,
        size,
        axis: (0, 0),
        link: 0,
        format,
        data,
        palette: 0,
        in_tdata: false,
    }
}

/// `bytes` with the u32 uncompressed length every v2 format but raw starts with.
fn prefixed(uncompressed: u32, bytes: &[u8]) -> Vec<u8> {
    let mut out = uncompressed.to_le_bytes().to_vec();
    out.extend_from_slice(bytes);
    out
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn build_v2(version: [u8; 4], palettes: &[V2Palette], sprites: &[V2Sprite]) -> Vec<u8> {
    let palette_table = 512;
    let sprite_table = palette_table + 16 * palettes.len();
    let ldata_start = sprite_table + 28 * sprites.len();
    let mut ldata = Vec::new();
    let mut tdata = Vec::new();
    let mut palette_entries = Vec::new();
    for p in palettes {
        put16(&mut palette_entries, p.group);
        put16(&mut palette_entries, p.item);
        put16(&mut palette_entries, p.colours.len() as u16);
        put16(&mut palette_entries, p.link);
        put32(&mut palette_entries, ldata.len() as u32);
        put32(&mut palette_entries, 4 * p.colours.len() as u32);
        for c in &p.colours {
            ldata.extend_from_slice(c);
        }
    }
    let mut sprite_entries = Vec::new();
    for s in sprites {
        let block = if s.in_tdata { &mut tdata } else { &mut ldata };
        let offset = if s.data.is_empty() {
            0
        } else {
            block.len() as u32
        };
        block.extend_from_slice(&s.data);
        put16(&mut sprite_entries, s.group);
        put16(&mut sprite_entries, s.item);
        put16(&mut sprite_entries, s.size.0);
        put16(&mut sprite_entries, s.size.1);
        put16(&mut sprite_entries, s.axis.0 as u16);
        put16(&mut sprite_entries, s.axis.1 as u16);
        put16(&mut sprite_entries, s.link);
        sprite_entries.push(s.format);
        sprite_entries.push(8);
        put32(&mut sprite_entries, offset);
        put32(&mut sprite_entries, s.data.len() as u32);
        put16(&mut sprite_entries, s.palette);
        put16(&mut sprite_entries, s.in_tdata as u16);
    }
    let tdata_start = ldata_start + ldata.len();
    let mut out = b"ElecbyteSpr\0".to_vec();
    out.extend_from_slice(&version);
    out.resize(24, 0);
    out.extend_from_slice(&version);
    out.resize(36, 0);
    for v in [
        sprite_table,
        sprites.len(),
        palette_table,
        palettes.len(),
        ldata_start,
        ldata.len(),
        tdata_start,
        tdata.len(),
    ] {
        put32(&mut out, v as u32);
    }
    out.resize(512, 0);
    out.extend_from_slice(&palette_entries);
    out.extend_from_slice(&sprite_entries);
    out.extend_from_slice(&ldata);
    out.extend_from_slice(&tdata);
    out
}

const V201: [u8; 4] = [0, 1, 0, 2];
const V200: [u8; 4] = [0, 0, 0, 2];

/// Colour i is (i, 2i, 3i) (wrapping), opaque.
fn ramp(count: usize) -> Vec<[u8; 4]> {
    (0..count)
        .map(|i| {
            let i = i as u8;
            [i, i.wrapping_mul(2), i.wrapping_mul(3), 255]
        })
        .collect()
}

fn palette(group: u16, item: u16, colours: Vec<[u8; 4]>) -> V2Palette {
    V2Palette {
        group,
        item,
        colours,
        link: 0,
    }
}

/// The RGBA a ramp palette gives each index (index 0 transparent).
fn ramp_rgba(indices: &[u8]) -> Vec<u8> {
    indices
        .iter()
        .flat_map(|&i| {
            if i == 0 {
                [0, 0, 0, 0]
            } else {
                [i, i.wrapping_mul(2), i.wrapping_mul(3), 255]
            }
        })
        .collect()
}

fn decode_own(archive: &SffArchive, group: i32, item: i32) -> Vec<u8> {
    let index = archive.find(group, item).expect("sprite present");
    archive
        .decode(index, PaletteChoice::Own)
        .unwrap_or_else(|e| panic!("{}", e.message))
        .image
        .into_raw()
}

#[test]
fn rle5_vector_built_from_the_format_text() {
    // "read RL, then DL. If DL & 0x80, read colour C, else C = 0; emit C RL+1 times. Then read
    // (DL & 0x7F) bytes b, each emitting colour b & 0x1F, (b >> 5) + 1 times. Repeat."
    let packets = [
        2,
        0x82,
        7,           // RL 2, DL 0x80|2, C 7: colour 7 three times; then 2 data bytes:
        0b010_00011, //   colour 3, (2) + 1 = three times
        0b000_00101, //   colour 5 once
        0,
        0x00, // RL 0, DL 0 (no colour byte): colour 0 once
        1,
        0x81,
        31,
        0b111_00001, // colour 31 twice, then colour 1 eight times
    ];
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(32))],
        &[sprite(0, 0, (6, 3), 3, prefixed(18, &packets))],
    ))
    .unwrap();
    assert_eq!(archive.sprites()[0].format, SpriteFormat::Rle5);
    let expected = [7, 7, 7, 3, 3, 3, 5, 0, 31, 31, 1, 1, 1, 1, 1, 1, 1, 1];
    assert_eq!(decode_own(&archive, 0, 0), ramp_rgba(&expected));
}

#[test]
fn raw_sprites_are_plain_indices_without_a_length_prefix() {
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(256))],
        &[sprite(4, 2, (3, 2), 0, vec![1, 2, 3, 200, 0, 9])],
    ))
    .unwrap();
    assert_eq!(archive.sprites()[0].format, SpriteFormat::Raw);
    assert_eq!(decode_own(&archive, 4, 2), ramp_rgba(&[1, 2, 3, 200, 0, 9]));
}

#[test]
fn data_ending_early_leaves_the_rest_transparent_and_says_so() {
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(256))],
        &[
            sprite(0, 0, (2, 2), 2, prefixed(4, &[0x42, 3])),
            // Raw data can never hold more pixels than bytes: too short is refused outright.
            sprite(0, 1, (2, 2), 0, vec![1, 2, 3]),
        ],
    ))
    .unwrap();
    let decoded = archive.decode(0, PaletteChoice::Own).unwrap();
    assert_eq!(decoded.image.into_raw(), ramp_rgba(&[3, 3, 0, 0]));
    assert_eq!(decoded.warnings.len(), 1);
    assert!(
        decoded.warnings[0].message.contains("2 of 4"),
        "{:?}",
        decoded.warnings
    );
    let e = archive.decode(1, PaletteChoice::Own).unwrap_err();
    assert!(e.message.contains("3 bytes"), "{}", e.message);
}

#[test]
fn linked_sprites_keep_their_own_axis_and_palette() {
    let mut source = sprite(0, 0, (2, 1), 2, prefixed(2, &[0x42, 3]));
    source.axis = (1, 1);
    let mut linked = sprite(0, 1, (2, 1), 1, Vec::new());
    linked.axis = (-5, 7);
    linked.palette = 1;
    let reds = vec![
        [0, 0, 0, 0],
        [0, 0, 0, 255],
        [0, 0, 0, 255],
        [200, 0, 0, 255],
    ];
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(4)), palette(1, 2, reds)],
        &[source, linked],
    ))
    .unwrap();
    let info = &archive.sprites()[1];
    assert_eq!(info.linked_to, Some(0));
    assert_eq!(info.format, SpriteFormat::Rle8);
    let decoded = archive.decode(1, PaletteChoice::Own).unwrap();
    assert_eq!(decoded.axis, (-5, 7));
    assert_eq!(
        decoded.image.into_raw(),
        vec![200, 0, 0, 255, 200, 0, 0, 255]
    );
    assert_eq!(decode_own(&archive, 0, 0), ramp_rgba(&[3, 3]));
}

#[test]
fn linked_palettes_share_colours_and_count_as_the_same_palette() {
    let mut s = sprite(0, 0, (1, 1), 0, vec![2]);
    s.palette = 1;
    let archive = SffArchive::parse(build_v2(
        V201,
        &[
            palette(1, 1, ramp(8)),
            V2Palette {
                group: 1,
                item: 2,
                colours: Vec::new(),
                link: 0,
            },
            palette(1, 3, vec![[9, 9, 9, 255]; 8]),
        ],
        &[s],
    ))
    .unwrap();
    assert_eq!(archive.palette(1), archive.palette(0));
    assert_eq!(decode_own(&archive, 0, 0), ramp_rgba(&[2]));
    // Palette 1,2 is 1,1 by link, so a palette choice recolours the sprite.
    let recoloured = archive.decode(0, PaletteChoice::Embedded(2)).unwrap();
    assert_eq!(recoloured.image.into_raw(), vec![9, 9, 9, 255]);
}

#[test]
fn sprites_in_the_tdata_block_are_found_there() {
    let mut a = sprite(0, 0, (2, 1), 2, prefixed(2, &[0x42, 5]));
    a.in_tdata = true;
    let b = sprite(0, 1, (2, 1), 2, prefixed(2, &[6, 7]));
    let archive = SffArchive::parse(build_v2(V201, &[palette(1, 1, ramp(8))], &[a, b])).unwrap();
    assert_eq!(decode_own(&archive, 0, 0), ramp_rgba(&[5, 5]));
    assert_eq!(decode_own(&archive, 0, 1), ramp_rgba(&[6, 7]));
}

#[test]
fn v200_palette_alpha_is_ignored_and_v201_alpha_is_kept() {
    let colours = vec![[1, 1, 1, 255], [10, 20, 30, 0], [40, 50, 60, 128]];
    let make = |version| {
        SffArchive::parse(build_v2(
            version,
            &[palette(1, 1, colours.clone())],
            &[sprite(0, 0, (3, 1), 0, vec![0, 1, 2])],
        ))
        .unwrap()
    };
    assert_eq!(
        decode_own(&make(V200), 0, 0),
        vec![0, 0, 0, 0, 10, 20, 30, 255, 40, 50, 60, 255]
    );
    assert_eq!(
        decode_own(&make(V201), 0, 0),
        vec![0, 0, 0, 0, 10, 20, 30, 0, 40, 50, 60, 128]
    );
}

#[test]
fn png8_uses_the_sff_palette_not_its_own() {
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, 2, 1);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(vec![255, 0, 0, 255, 0, 0, 255, 0, 0]);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[1, 2]).unwrap();
    }
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(4))],
        &[sprite(0, 0, (2, 1), 10, prefixed(2, &png))],
    ))
    .unwrap();
    assert_eq!(decode_own(&archive, 0, 0), ramp_rgba(&[1, 2]));
}

#[test]
fn the_first_sprite_with_a_pair_wins() {
    let archive = SffArchive::parse(build_v2(
        V201,
        &[palette(1, 1, ramp(8))],
        &[
            sprite(3, 3, (1, 1), 0, vec![4]),
            sprite(3, 3, (1, 1), 0, vec![5]),
        ],
    ))
    .unwrap();
    assert_eq!(archive.find(3, 3), Some(0));
    assert_eq!(archive.find(-1, 0), None);
    assert_eq!(decode_own(&archive, 3, 3), ramp_rgba(&[4]));
}

#[test]
fn a_huge_claimed_size_with_little_data_is_refused_without_allocating() {
    for format in [2u8, 3, 4, 0] {
        let archive = SffArchive::parse(build_v2(
            V201,
            &[palette(1, 1, ramp(8))],
            &[sprite(
                0,
                0,
                (65535, 65535),
                format,
                prefixed(4, &[1, 2, 3, 4, 5, 6]),
            )],
        ))
        .unwrap();
        let e = archive.decode(0, PaletteChoice::Own).unwrap_err();
        assert!(e.message.contains("65535x65535"), "{}", e.message);
        assert!(matches!(e.location, Location::Byte(_)));
    }
}

#[test]
fn counts_beyond_the_file_are_capped_and_reported() {
    let mut bytes = build_v2(
        V201,
        &[palette(1, 1, ramp(8))],
        &[sprite(0, 0, (1, 1), 0, vec![1])],
    );
    bytes[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    bytes[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
    let archive = SffArchive::parse(bytes).unwrap();
    assert!(
        archive
            .diagnostics()
            .iter()
            .any(|d| d.location == Location::Byte(40) && d.message.contains("4294967295 sprites"))
    );
    assert!(archive.sprites().len() < 100);
}

#[test]
fn a_loop_of_links_is_reported_not_followed_forever() {
    let mut a = sprite(0, 0, (1, 1), 1, Vec::new());
    a.link = 1;
    let mut b = sprite(0, 1, (1, 1), 1, Vec::new());
    b.link = 0;
    let archive = SffArchive::parse(build_v2(V201, &[palette(1, 1, ramp(8))], &[a, b])).unwrap();
    assert!(
        archive
            .decode(0, PaletteChoice::Own)
            .unwrap_err()
            .message
            .contains("loop")
    );
    assert!(archive.decode(1, PaletteChoice::Own).is_err());
}

// ---------------------------------------------------------------------------------------------
// SFF v1 builder
// ---------------------------------------------------------------------------------------------

struct V1Sprite {
    group: u16,
    image: u16,
    axis: (i16, i16),
    /// PCX bytes (with the trailing palette for own-palette sprites); empty = linked.
    pcx: Vec<u8>,
    link: u16,
    same_palette: bool,
    /// What the length field says, when it lies.
    claimed_length: Option<u32>,
}

/// An 8-bit RLE PCX of `width` x `height` from its encoded scanlines, with an optional
/// palette of RGB triples.
fn pcx(
    width: u16,
    height: u16,
    bytes_per_line: u16,
    rle: &[u8],
    palette: Option<&[u8]>,
) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    h[0] = 10;
    h[1] = 5;
    h[2] = 1;
    h[3] = 8;
    h[8..10].copy_from_slice(&(width - 1).to_le_bytes());
    h[10..12].copy_from_slice(&(height - 1).to_le_bytes());
    h[65] = 1;
    h[66..68].copy_from_slice(&bytes_per_line.to_le_bytes());
    h.extend_from_slice(rle);
    if let Some(p) = palette {
        h.push(0x0C);
        let mut full = p.to_vec();
        full.resize(768, 0);
        h.extend_from_slice(&full);
    }
    h
}

fn v1_sprite(group: u16, image: u16, pcx: Vec<u8>, same_palette: bool) -> V1Sprite {
    V1Sprite {
        group,
        image,
        axis: (0, 0),
        pcx,
        link: 0,
        same_palette,
        claimed_length: None,
    }
}

fn build_v1(sprites: &[V1Sprite]) -> Vec<u8> {
    let mut out = b"ElecbyteSpr\0".to_vec();
    out.extend_from_slice(&[0, 1, 0, 1]);
    put32(&mut out, 1);
    put32(&mut out, sprites.len() as u32);
    put32(&mut out, 512);
    put32(&mut out, 32);
    out.push(1);
    out.resize(512, 0);
    for (i, s) in sprites.iter().enumerate() {
        let start = out.len();
        let next = if i + 1 == sprites.len() {
            0
        } else {
            start + 32 + s.pcx.len()
        };
        put32(&mut out, next as u32);
        put32(&mut out, s.claimed_length.unwrap_or(s.pcx.len() as u32));
        put16(&mut out, s.axis.0 as u16);
        put16(&mut out, s.axis.1 as u16);
        put16(&mut out, s.group);
        put16(&mut out, s.image);
        put16(&mut out, s.link);
        out.push(s.same_palette as u8);
        out.resize(start + 32, 0);
        out.extend_from_slice(&s.pcx);
    }
    out
}

/// RGB triples where colour i is (i, i, 100) for a few colours.
fn blue_ramp() -> Vec<u8> {
    (0..8u8).flat_map(|i| [i, i, 100]).collect()
}

fn green_ramp() -> Vec<u8> {
    (0..8u8).flat_map(|i| [0, 50 + i, 0]).collect()
}

#[test]
fn v1_same_palette_sprites_use_the_previous_palette_and_lying_lengths_are_reported() {
    let mut second = v1_sprite(0, 1, pcx(2, 1, 2, &[0xC2, 3], None), true);
    // Real files count the 768 palette bytes same-palette sprites leave out.
    second.claimed_length = Some(second.pcx.len() as u32 + 768);
    let bytes = build_v1(&[
        v1_sprite(0, 0, pcx(2, 1, 2, &[1, 2], Some(&blue_ramp())), false),
        second,
        // Long enough that the second sprite's claimed extent stays inside the file.
        v1_sprite(0, 2, pcx(1000, 1, 1000, &[4; 1000], None), true),
    ]);
    let second_header = 512 + 32 + 128 + 2 + 769;
    let archive = SffArchive::parse(bytes).unwrap();
    assert_eq!(archive.version().to_string(), "1.01");
    assert_eq!(
        decode_own(&archive, 0, 0),
        vec![1, 1, 100, 255, 2, 2, 100, 255]
    );
    assert_eq!(
        decode_own(&archive, 0, 1),
        vec![3, 3, 100, 255, 3, 3, 100, 255]
    );
    assert_eq!(decode_own(&archive, 0, 2), [4, 4, 100, 255].repeat(1000));
    let lie = archive
        .diagnostics()
        .iter()
        .find(|d| {
            d.message
                .contains("1 same-palette sprites (the first is 0,1)")
        })
        .expect("the lying length is reported");
    assert_eq!(lie.location, Location::Byte(second_header as u64 + 4));
}

#[test]
fn v1_the_last_sprite_overrunning_the_file_is_clamped() {
    let mut last = v1_sprite(0, 0, pcx(3, 1, 4, &[0xC3, 1, 0], Some(&blue_ramp())), false);
    last.claimed_length = Some(last.pcx.len() as u32 + 768);
    let archive = SffArchive::parse(build_v1(&[last])).unwrap();
    assert!(
        archive.diagnostics()[0].message.contains("past the end"),
        "{:?}",
        archive.diagnostics()
    );
    assert_eq!(decode_own(&archive, 0, 0), [[1, 1, 100, 255]; 3].concat());
}

#[test]
fn v1_linked_sprites_reuse_pixels_with_their_own_axis() {
    let mut linked = v1_sprite(5, 1, Vec::new(), true);
    linked.link = 0;
    linked.axis = (3, -4);
    let mut source = v1_sprite(5, 0, pcx(1, 2, 1, &[4, 5], Some(&blue_ramp())), false);
    source.axis = (1, 1);
    let archive = SffArchive::parse(build_v1(&[source, linked])).unwrap();
    let info = &archive.sprites()[1];
    assert_eq!((info.linked_to, info.width, info.height), (Some(0), 1, 2));
    let decoded = archive.decode(1, PaletteChoice::Own).unwrap();
    assert_eq!(decoded.axis, (3, -4));
    assert_eq!(
        decoded.image.into_raw(),
        vec![4, 4, 100, 255, 5, 5, 100, 255]
    );
}

#[test]
fn v1_act_palettes_replace_the_shared_palette_of_sprite_0_0() {
    // The portrait comes first with its own colours; 0,0 sets the shared palette, which 0,1
    // shares. A .act recolours 0,0 and 0,1 and leaves the portrait alone.
    let bytes = build_v1(&[
        v1_sprite(9000, 0, pcx(1, 1, 1, &[2], Some(&green_ramp())), false),
        v1_sprite(0, 0, pcx(1, 1, 1, &[2], Some(&blue_ramp())), false),
        v1_sprite(0, 1, pcx(1, 1, 1, &[3], None), true),
    ]);
    let archive = SffArchive::parse(bytes).unwrap();
    assert_eq!(archive.main_palette(), Some(0));
    assert_eq!(archive.palette_label(0), Some("from sprite 0,0"));
    let mut act = vec![0u8; 768];
    // Colour 2 is the third triple from the end; colour 3 the fourth.
    act[768 - 9..768 - 6].copy_from_slice(&[200, 100, 50]);
    act[768 - 12..768 - 9].copy_from_slice(&[201, 101, 51]);
    let act = Palette::from_act(&act).unwrap();
    let with_act = |group: i32, item: i32| {
        archive
            .decode(
                archive.find(group, item).unwrap(),
                PaletteChoice::Colours(&act),
            )
            .unwrap()
            .image
            .into_raw()
    };
    assert_eq!(with_act(0, 0), vec![200, 100, 50, 255]);
    assert_eq!(with_act(0, 1), vec![201, 101, 51, 255]);
    assert_eq!(with_act(9000, 0), vec![0, 52, 0, 255]);
}

#[test]
fn v1_a_header_chain_pointing_backwards_stops_with_an_error() {
    let mut bytes = build_v1(&[
        v1_sprite(0, 0, pcx(1, 1, 1, &[1], Some(&blue_ramp())), false),
        v1_sprite(0, 1, pcx(1, 1, 1, &[1], None), true),
    ]);
    let second = u32::from_le_bytes(bytes[512..516].try_into().unwrap()) as usize;
    bytes[second..second + 4].copy_from_slice(&512u32.to_le_bytes());
    bytes[20..24].copy_from_slice(&3u32.to_le_bytes());
    let archive = SffArchive::parse(bytes).unwrap();
    assert_eq!(archive.sprites().len(), 2);
    assert!(
        archive
            .diagnostics()
            .iter()
            .any(|d| d.message.contains("backwards"))
    );
}
