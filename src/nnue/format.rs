//! The network files: STKNET01 (one output layer), STKNET02 (output
//! buckets) and STKNET03 (king buckets, with their layout in the file) —
//! their sizes, reading with every check, and writing (net/README.md, "The
//! format").

use super::{INPUTS, KingBuckets, Layers, MAX_BUCKETS, MAX_HIDDEN, Network, QB, WEIGHT_LIMIT};
use super::{MAX_KING_BUCKETS, WIDTHS, with_layers};

/// The three file formats, each a superset of the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// `STKNET01`: hidden size; input weights, biases, one output layer.
    One,
    /// `STKNET02`: hidden size, output bucket count; then as above with
    /// each bucket's output layer.
    Buckets,
    /// `STKNET03`: hidden size, output buckets, king buckets, flags (bit 0:
    /// mirrored), each square's king bucket (64 bytes); then as above with
    /// one input weight set per king bucket.
    Kings,
}

impl Format {
    const ALL: [Format; 3] = [Format::One, Format::Buckets, Format::Kings];

    /// The oldest format that holds a network of these buckets.
    const fn of(output_buckets: usize, kings: KingBuckets) -> Format {
        if !kings.is_none() {
            Format::Kings
        } else if output_buckets > 1 {
            Format::Buckets
        } else {
            Format::One
        }
    }

    const fn magic(self) -> &'static [u8; 8] {
        match self {
            Format::One => b"STKNET01",
            Format::Buckets => b"STKNET02",
            Format::Kings => b"STKNET03",
        }
    }

    /// The bytes before the weights.
    const fn header_bytes(self) -> usize {
        match self {
            Format::One => 8 + 4,
            Format::Buckets => 8 + 4 + 4,
            Format::Kings => 8 + 4 * 4 + 64,
        }
    }

    /// The size of a file of this format: the header, the i16 input weights
    /// (`king_buckets` sets) and hidden biases, and each output bucket's
    /// i16 weights and i32 bias.
    const fn file_bytes(self, hidden: usize, output_buckets: usize, king_buckets: usize) -> usize {
        self.header_bytes()
            + 2 * (king_buckets * INPUTS * hidden + hidden)
            + output_buckets * (2 * 2 * hidden + 4)
    }
}

/// The size of the file of a network `hidden` units wide with
/// `output_buckets` output layers and the input sets of `kings`.
pub const fn file_bytes(hidden: usize, output_buckets: usize, kings: KingBuckets) -> usize {
    Format::of(output_buckets, kings).file_bytes(hidden, output_buckets, kings.count())
}

/// The largest network file.
pub const MAX_FILE_BYTES: usize =
    Format::Kings.file_bytes(MAX_HIDDEN, MAX_BUCKETS, MAX_KING_BUCKETS);

/// Reads a file of any of the formats.
pub fn read(bytes: &[u8]) -> Result<Network, String> {
    let magic = bytes
        .get(..8)
        .ok_or("not a Stockman network file (too short)")?;
    let format = Format::ALL
        .into_iter()
        .find(|f| f.magic() == magic)
        .ok_or("not a Stockman network file (bad magic)")?;
    if bytes.len() < format.header_bytes() {
        return Err("network file ends inside its header".to_string());
    }
    let mut r = Reader { bytes, at: 8 };
    let hidden = r.u32() as usize;
    let buckets = match format {
        Format::One => 1,
        _ => r.u32() as usize,
    };
    let least = if format == Format::Buckets { 2 } else { 1 };
    if !(least..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!(
            "network has {buckets} output buckets; this build reads 2 to {MAX_BUCKETS} (or one, in the first and third formats)"
        ));
    }
    let kings = match format {
        Format::Kings => read_layout(&mut r)?,
        _ => KingBuckets::NONE,
    };
    if !WIDTHS.contains(&hidden) {
        return Err(format!(
            "network has {hidden} hidden units; this build reads {WIDTHS:?}"
        ));
    }
    let expected = format.file_bytes(hidden, buckets, kings.count());
    if bytes.len() != expected {
        return Err(format!(
            "network file of {hidden} hidden units, {buckets} output buckets and {} king buckets has {} bytes, expected {expected}",
            kings.count(),
            bytes.len()
        ));
    }
    Ok(match hidden {
        128 => Network::H128(read_layers(&mut r, buckets, kings)?),
        256 => Network::H256(read_layers(&mut r, buckets, kings)?),
        512 => Network::H512(read_layers(&mut r, buckets, kings)?),
        768 => Network::H768(read_layers(&mut r, buckets, kings)?),
        _ => Network::H1024(read_layers(&mut r, buckets, kings)?),
    })
}

/// The third format's king-bucket count, flags and layout.
fn read_layout(r: &mut Reader) -> Result<KingBuckets, String> {
    let count = r.u32();
    let flags = r.u32();
    if flags > 1 {
        return Err(format!(
            "network flags {flags:#x}: this build knows bit 0 (mirrored) only"
        ));
    }
    let mut map = [0u8; 64];
    for square in &mut map {
        *square = r.u8();
    }
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    KingBuckets::new(map, count, flags == 1).map_err(|e| format!("network layout: {e}"))
}

/// The weights after the header, whose length the caller has checked.
fn read_layers<const H: usize>(
    r: &mut Reader,
    buckets: usize,
    kings: KingBuckets,
) -> Result<Layers<H>, String> {
    let mut layers = Layers::<H>::zeroed(buckets, kings);
    for w in layers.words_mut() {
        *w = r.i16();
    }
    for b in layers.output_bias[..buckets].iter_mut() {
        *b = r.u32() as i32;
    }
    // `half_sum` multiplies an activation (at most QA) by an output
    // weight in 16 bits: the trainer keeps them within WEIGHT_LIMIT.
    // (`unsigned_abs`: `abs` of -32768 overflows.)
    let limit = (WEIGHT_LIMIT * QB as f32).round() as u16;
    if layers
        .output
        .iter()
        .flatten()
        .flatten()
        .any(|w| w.unsigned_abs() > limit)
    {
        return Err(format!("network output weights beyond ±{limit}"));
    }
    Ok(layers)
}

/// The file of `net`, in the oldest format that holds it.
pub fn write(net: &Network) -> Vec<u8> {
    with_layers!(net, l => write_layers(l))
}

fn write_layers<const H: usize>(layers: &Layers<H>) -> Vec<u8> {
    let (buckets, kings) = (layers.buckets, layers.kings);
    let format = Format::of(buckets, kings);
    let mut out = Vec::with_capacity(file_bytes(H, buckets, kings));
    out.extend_from_slice(format.magic());
    out.extend_from_slice(&(H as u32).to_le_bytes());
    if format != Format::One {
        out.extend_from_slice(&(buckets as u32).to_le_bytes());
    }
    if format == Format::Kings {
        out.extend_from_slice(&(kings.count() as u32).to_le_bytes());
        out.extend_from_slice(&u32::from(kings.mirrored()).to_le_bytes());
        out.extend_from_slice(kings.map());
    }
    for w in layers.words() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &layers.output_bias[..buckets] {
        out.extend_from_slice(&b.to_le_bytes());
    }
    out
}

/// Little-endian words from a byte string long enough for them.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> u8 {
        self.at += 1;
        self.bytes[self.at - 1]
    }

    fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }

    fn u32(&mut self) -> u32 {
        let b = &self.bytes[self.at..self.at + 4];
        self.at += 4;
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::EMBEDDED;
    use crate::nnue::king_buckets::examples;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    const FENS: [&str; 3] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
    ];

    fn evaluate(net: &Network, fen: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        net.evaluate(pos.board(), pos.turn())
    }

    #[test]
    fn the_file_format_round_trips_and_refuses_garbage() {
        let net = Network::embedded();
        let bytes = net.to_bytes();
        assert!(Arc::ptr_eq(&net, &Network::embedded()), "read once");
        assert_eq!(bytes, EMBEDDED);
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again.to_bytes(), bytes);
        assert!(Network::from_bytes(b"hello").is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong_width = bytes.clone();
        wrong_width[8] = 64;
        assert!(Network::from_bytes(&wrong_width).is_err());
        // A width this build reads, with the other width's length.
        wrong_width[8] = if net.hidden() == 128 { 0 } else { 128 };
        wrong_width[9] = if net.hidden() == 128 { 1 } else { 0 };
        assert!(Network::from_bytes(&wrong_width).is_err());
        assert!(Network::from_bytes(&bytes[..10]).is_err());
        // An output weight too large for the 16-bit products.
        let mut too_large = bytes.clone();
        let hidden = net.hidden();
        let first_output = Format::of(net.buckets(), KingBuckets::NONE).header_bytes()
            + 2 * (INPUTS * hidden + hidden);
        too_large[first_output..first_output + 2].copy_from_slice(&1000i16.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
        // The most negative weight: its `abs()` would wrap and pass.
        too_large[first_output..first_output + 2].copy_from_slice(&i16::MIN.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
        too_large[first_output..first_output + 2].copy_from_slice(&(-126i16).to_le_bytes());
        assert!(
            Network::from_bytes(&too_large).is_ok(),
            "-126 is inside ±127"
        );
        assert_eq!(
            bytes.len(),
            file_bytes(hidden, net.buckets(), KingBuckets::NONE)
        );
    }

    use std::sync::Arc;

    #[test]
    fn bucketed_files_round_trip_and_refuse_bad_bucket_counts() {
        let net = Network::H128(Layers::<128>::random(17, 8));
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], b"STKNET02");
        assert_eq!(bytes.len(), file_bytes(128, 8, KingBuckets::NONE));
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again.buckets(), 8);
        assert_eq!(again.to_bytes(), bytes);
        for fen in FENS {
            assert_eq!(evaluate(&again, fen), evaluate(&net, fen));
        }
        for count in [0u32, 1, 9, u32::MAX] {
            let mut bad = bytes.clone();
            bad[12..16].copy_from_slice(&count.to_le_bytes());
            let err = Network::from_bytes(&bad).unwrap_err();
            assert!(err.contains("output buckets"), "{count}: {err}");
        }
        let mut four = bytes.clone();
        four[12..16].copy_from_slice(&4u32.to_le_bytes());
        assert!(Network::from_bytes(&four).unwrap_err().contains("expected"));
        assert!(Network::from_bytes(&bytes[..14]).is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        // The last bucket's output weight beyond the 16-bit products' range.
        let mut too_large = bytes.clone();
        let last_weight = bytes.len() - 8 * 4 - 2;
        too_large[last_weight..last_weight + 2].copy_from_slice(&1000i16.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
    }

    /// Every width and king-bucket layout, with one output layer or eight,
    /// writes the third format and reads back as the same network.
    #[test]
    fn king_bucket_files_round_trip_with_their_layout() {
        for (i, kings) in examples().into_iter().enumerate() {
            for buckets in [1, 8] {
                let seed = 100 + i as u64;
                for net in [
                    Network::H128(Layers::random_with(seed, buckets, kings)),
                    Network::H256(Layers::random_with(seed, buckets, kings)),
                    Network::H1024(Layers::random_with(seed, buckets, kings)),
                ] {
                    let bytes = net.to_bytes();
                    assert_eq!(&bytes[..8], b"STKNET03");
                    assert_eq!(bytes.len(), file_bytes(net.hidden(), buckets, kings));
                    let again = Network::from_bytes(&bytes).unwrap();
                    assert_eq!(again.kings(), kings);
                    assert_eq!((again.hidden(), again.buckets()), (net.hidden(), buckets));
                    assert_eq!(again.to_bytes(), bytes);
                    for fen in FENS {
                        assert_eq!(evaluate(&again, fen), evaluate(&net, fen));
                    }
                }
            }
        }
    }

    #[test]
    fn king_bucket_files_refuse_bad_layouts() {
        let kings = examples()[1];
        let net = Network::H128(Layers::random_with(5, 8, kings));
        let bytes = net.to_bytes();
        let refused = |at: usize, value: &[u8], what: &str| {
            let mut bad = bytes.clone();
            bad[at..at + value.len()].copy_from_slice(value);
            let err = Network::from_bytes(&bad).unwrap_err();
            assert!(err.contains(what), "{what}: {err}");
        };
        refused(16, &0u32.to_le_bytes(), "king buckets");
        refused(16, &33u32.to_le_bytes(), "king buckets");
        refused(16, &u32::MAX.to_le_bytes(), "king buckets");
        // Five sets where the file holds four: the length is wrong.
        refused(16, &5u32.to_le_bytes(), "expected");
        refused(20, &2u32.to_le_bytes(), "flags");
        // a1 in bucket 4 of four.
        refused(24, &[4], "king bucket 4");
        // h1 unlike its mirror a1.
        refused(24 + 7, &[1], "mirror");
        // Not mirrored: the layout holds as it is.
        let mut plain = bytes.clone();
        plain[20..24].copy_from_slice(&0u32.to_le_bytes());
        assert!(!Network::from_bytes(&plain).unwrap().kings().mirrored());
        refused(12, &9u32.to_le_bytes(), "output buckets");
        assert!(Network::from_bytes(&bytes[..50]).is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        // One set, no mirror, in the third format: the same network as the
        // second format's, which is what it writes back.
        let one = Network::H128(Layers::random(5, 8)).to_bytes();
        let mut third = b"STKNET03".to_vec();
        third.extend_from_slice(&one[8..16]);
        third.extend_from_slice(&1u32.to_le_bytes());
        third.extend_from_slice(&0u32.to_le_bytes());
        third.extend_from_slice(&[0; 64]);
        third.extend_from_slice(&one[16..]);
        assert_eq!(Network::from_bytes(&third).unwrap().to_bytes(), one);
    }

    /// The sizes build.rs accepts for EVALFILE and the docs quote.
    #[test]
    fn file_sizes() {
        let none = KingBuckets::NONE;
        assert_eq!(file_bytes(128, 1, none), 197_392);
        assert_eq!(file_bytes(256, 1, none), 394_768);
        assert_eq!(file_bytes(128, 8, none), 201_008);
        assert_eq!(file_bytes(256, 8, none), 401_968);
        let [mirror, four, ..] = examples()[..] else {
            unreachable!()
        };
        assert_eq!(file_bytes(256, 8, mirror), 401_968 - 16 + 88);
        assert_eq!(
            file_bytes(256, 8, four),
            401_968 - 16 + 88 + 3 * 768 * 256 * 2
        );
        assert_eq!(
            MAX_FILE_BYTES,
            88 + 2 * (32 * 768 * 1024 + 1024) + 8 * (4 * 1024 + 4)
        );
    }
}
