//! Property tests of SFF writing: random sprites round trip through every codec and through a
//! whole written archive; what a codec cannot hold is refused with the reason; random edits of
//! an archive write one that reads back without a diagnostic.

use proptest::prelude::*;
use sprat::formats::sff::edit::{EditableSff, StoredSprite, decode_stored};
use sprat::formats::sff::encode::{Codec, MAX_SIDE, SpritePixels, encode_sprite};
use sprat::formats::sff::write::write_sff;
use sprat::formats::sff::{Palette, SffArchive};
use std::sync::Arc;

/// Indexed sprites up to 40x40 whose pixels are runs (as real art is) or noise, with colours
/// below `colours`.
fn indexed(colours: u8) -> impl Strategy<Value = SpritePixels> {
    (1u32..40, 1u32..40).prop_flat_map(move |(width, height)| {
        let len = (width * height) as usize;
        prop::collection::vec((0..colours, 1usize..40), 1..len + 1).prop_map(move |runs| {
            let mut indices: Vec<u8> = runs
                .into_iter()
                .flat_map(|(c, n)| std::iter::repeat_n(c, n))
                .collect();
            indices.resize(len, 0);
            SpritePixels::Indexed {
                width,
                height,
                indices,
            }
        })
    })
}

fn rgba() -> impl Strategy<Value = SpritePixels> {
    (1u32..24, 1u32..24).prop_flat_map(|(width, height)| {
        prop::collection::vec(any::<u8>(), (width * height * 4) as usize).prop_map(move |rgba| {
            SpritePixels::Rgba {
                width,
                height,
                rgba,
            }
        })
    })
}

fn decode(pixels: &SpritePixels, codec: Codec) -> Result<SpritePixels, String> {
    let data = encode_sprite(pixels, codec, None).map_err(|e| e.message)?;
    let (width, height) = pixels.size();
    decode_stored(&StoredSprite {
        codec,
        width,
        height,
        data,
        pixels_hash: 0,
    })
    .map_err(|e| e.message)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn indexed_sprites_round_trip_through_every_indexed_codec(pixels in indexed(255)) {
        for codec in [Codec::Raw, Codec::Rle8, Codec::Rle5, Codec::Png8, Codec::Pcx] {
            prop_assert_eq!(&decode(&pixels, codec).unwrap(), &pixels, "{:?}", codec);
        }
        let SpritePixels::Indexed { indices, .. } = &pixels else { unreachable!() };
        match decode(&pixels, Codec::Lz5) {
            Ok(back) => prop_assert_eq!(back, pixels.clone()),
            Err(e) => prop_assert!(indices.iter().any(|&c| c >= 32) && e.contains("0 to 31"), "{}", e),
        }
    }

    #[test]
    fn five_bit_sprites_round_trip_through_lz5_and_rle5(pixels in indexed(32)) {
        prop_assert_eq!(&decode(&pixels, Codec::Lz5).unwrap(), &pixels);
        prop_assert_eq!(&decode(&pixels, Codec::Rle5).unwrap(), &pixels);
    }

    #[test]
    fn true_colour_round_trips_as_png32_and_is_refused_by_indexed_codecs(pixels in rgba()) {
        prop_assert_eq!(&decode(&pixels, Codec::Png32).unwrap(), &pixels);
        for codec in [Codec::Raw, Codec::Rle8, Codec::Rle5, Codec::Lz5, Codec::Png8, Codec::Pcx] {
            let e = decode(&pixels, codec).unwrap_err();
            prop_assert!(e.contains("true colour"), "{}", e);
        }
    }

    #[test]
    fn random_edits_write_an_archive_that_reads_back_clean(
        sprites in prop::collection::vec((0u16..4, 0u16..6, any::<(i16, i16)>(), indexed(32), 0usize..5), 1..12),
        v1 in any::<bool>(),
    ) {
        let mut sff = EditableSff::new(Palette::grey_ramp());
        if v1 {
            sff.version = sprat::formats::sff::edit::V1;
        }
        let mut expected = std::collections::HashMap::new();
        for (group, image, axis, pixels, codec) in sprites {
            let codec = [None, Some(Codec::Lz5), Some(Codec::Rle8), Some(Codec::Png8), Some(Codec::Rle5)][codec];
            let codec = if v1 { None } else { codec };
            if sff.add_sprite(group, image, axis, &pixels, 0, codec).is_ok() {
                expected.insert((group, image), (axis, pixels));
            }
        }
        let bytes = write_sff(&sff).unwrap();
        let archive = Arc::new(SffArchive::parse(bytes).unwrap());
        prop_assert!(archive.check().is_empty(), "{:?}", archive.check());
        prop_assert_eq!(archive.version().major(), if v1 { 1 } else { 2 });
        prop_assert_eq!(archive.sprites().len(), expected.len());
        for ((group, image), (axis, pixels)) in &expected {
            let i = archive.find((*group).into(), (*image).into()).unwrap();
            prop_assert_eq!(archive.sprites()[i].axis, (i32::from(axis.0), i32::from(axis.1)));
            prop_assert_eq!(&archive.decode_pixels(i).unwrap().0, pixels);
        }
        // And once more through the editor: unedited, the same bytes.
        let again = EditableSff::from_archive(archive.clone()).expect("held in memory");
        prop_assert_eq!(write_sff(&again).unwrap(), archive.bytes().unwrap());
    }
}

#[test]
fn sprites_that_cannot_be_stored_are_refused_with_the_reason() {
    let too_wide = SpritePixels::Indexed {
        width: MAX_SIDE + 1,
        height: 1,
        indices: vec![0; MAX_SIDE as usize + 1],
    };
    let e = encode_sprite(&too_wide, Codec::Rle8, None).unwrap_err();
    assert!(e.message.contains("1 to 65535"), "{e}");
    let empty = SpritePixels::Rgba {
        width: 0,
        height: 4,
        rgba: Vec::new(),
    };
    assert!(encode_sprite(&empty, Codec::Png32, None).is_err());
    let short = SpritePixels::Indexed {
        width: 4,
        height: 4,
        indices: vec![1; 15],
    };
    assert!(
        encode_sprite(&short, Codec::Raw, None)
            .unwrap_err()
            .message
            .contains("16 indices")
    );
    // An archive refuses the sprite when it is added: nothing half-made is left behind.
    let mut sff = EditableSff::new(Palette::grey_ramp());
    let colourful = SpritePixels::Indexed {
        width: 2,
        height: 1,
        indices: vec![1, 200],
    };
    let e = sff
        .add_sprite(0, 0, (0, 0), &colourful, 0, Some(Codec::Lz5))
        .unwrap_err();
    assert!(e.message.contains("colour 200"), "{e}");
    assert!(sff.sprites.is_empty());
    let e = sff
        .add_sprite(0, 0, (0, 0), &colourful, 3, None)
        .unwrap_err();
    assert!(e.message.contains("palette number 3"), "{e}");
}
