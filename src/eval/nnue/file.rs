//! The quantised net file: a 64-byte header, then the weights, all little-endian.
//!
//! ```text
//! offset size  field
//!      0    8  magic "SITKENNU"
//!      8    4  format version (1)
//!     12    4  inputs per perspective (features::INPUTS)
//!     16    4  hidden size N per perspective
//!     20    4  output buckets B
//!     24    4  activation: 0 CReLU, 1 SCReLU
//!     28    4  QA: hidden weights and biases are scaled by it
//!     32    4  QB: output weights are scaled by it
//!     36    4  SCALE: the output times SCALE is centipawns
//!     40    8  payload length in bytes
//!     48    8  FNV-1a 64 checksum of the payload
//!     56    8  reserved, zero
//!     64       payload:
//!              hidden weights  i16 [inputs][N]  (input-major: a feature's column is contiguous)
//!              hidden biases   i16 [N]
//!              output weights  i16 [B][2N]      (own side's N first, then the other side's)
//!              output biases   i32 [B]
//! ```
//! A net is named by the FNV-1a 64 hash of the whole file, which `Network::name` prints.

use std::fmt;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"SITKENNU";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;

/// The hidden layer's activation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Activation {
    /// clamp(x, 0, QA).
    CReLU,
    /// clamp(x, 0, QA) squared.
    SCReLU,
}

impl Activation {
    fn code(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    fn from_code(c: u32) -> Option<Activation> {
        match c {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// The shape and scales of a net.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Architecture {
    /// Inputs per perspective.
    pub inputs: usize,
    /// Hidden size per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// The hidden activation.
    pub activation: Activation,
    /// Quantisation of the hidden layer.
    pub qa: i32,
    /// Quantisation of the output weights.
    pub qb: i32,
    /// Output scale to centipawns.
    pub scale: i32,
}

/// A quantised net as stored: the weights in file order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct QuantisedNet {
    /// The shape.
    pub arch: Architecture,
    /// Hidden weights, `[inputs][hidden]`.
    pub hidden_weights: Vec<i16>,
    /// Hidden biases, `[hidden]`.
    pub hidden_biases: Vec<i16>,
    /// Output weights, `[buckets][2 * hidden]`.
    pub output_weights: Vec<i16>,
    /// Output biases, `[buckets]`.
    pub output_biases: Vec<i32>,
}

/// Why a net file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetError {
    /// Shorter than its header or its stated payload.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        got: usize,
    },
    /// Not a Sitke net.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// The checksum does not match the payload.
    Checksum {
        /// The header's checksum.
        stored: u64,
        /// The payload's.
        computed: u64,
    },
    /// A shape this build cannot use.
    Shape(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { needed, got } => write!(f, "file too short: {got} bytes, {needed} needed"),
            NetError::BadMagic => write!(f, "not a Sitke net (bad magic)"),
            NetError::Version(v) => write!(f, "net format version {v}, this build reads {VERSION}"),
            NetError::Checksum { stored, computed } => {
                write!(f, "checksum mismatch: header {stored:016x}, payload {computed:016x}")
            }
            NetError::Shape(s) => write!(f, "unusable architecture: {s}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: a checksum against truncation and bit rot, not against malice.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Architecture {
    /// Payload bytes of a net of this shape.
    pub fn payload_len(&self) -> usize {
        2 * (self.inputs * self.hidden + self.hidden + self.buckets * 2 * self.hidden) + 4 * self.buckets
    }
}

impl QuantisedNet {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let a = &self.arch;
        let mut payload = Vec::with_capacity(a.payload_len());
        for w in self.hidden_weights.iter().chain(&self.hidden_biases).chain(&self.output_weights) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_biases {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            a.inputs as u32,
            a.hidden as u32,
            a.buckets as u32,
            a.activation.code(),
            a.qa as u32,
            a.qb as u32,
            a.scale as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&[0u8; 8]);
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a net file, checking everything the header promises.
    pub fn from_bytes(b: &[u8]) -> Result<QuantisedNet, NetError> {
        if b.len() < HEADER_LEN {
            return Err(NetError::Truncated { needed: HEADER_LEN, got: b.len() });
        }
        if &b[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let activation = Activation::from_code(u32_at(b, 24))
            .ok_or_else(|| NetError::Shape(format!("activation code {}", u32_at(b, 24))))?;
        let arch = Architecture {
            inputs: u32_at(b, 12) as usize,
            hidden: u32_at(b, 16) as usize,
            buckets: u32_at(b, 20) as usize,
            activation,
            qa: u32_at(b, 28) as i32,
            qb: u32_at(b, 32) as i32,
            scale: u32_at(b, 36) as i32,
        };
        if arch.inputs != super::features::INPUTS {
            return Err(NetError::Shape(format!("{} inputs, this build has {}", arch.inputs, super::features::INPUTS)));
        }
        if arch.hidden == 0 || arch.hidden > 4096 || arch.buckets == 0 || arch.buckets > 32 {
            return Err(NetError::Shape(format!("hidden {} buckets {}", arch.hidden, arch.buckets)));
        }
        if arch.qa <= 0 || arch.qb <= 0 || arch.scale <= 0 {
            return Err(NetError::Shape(format!("QA {} QB {} SCALE {}", arch.qa, arch.qb, arch.scale)));
        }
        let stated = u64_at(b, 40) as usize;
        if stated != arch.payload_len() {
            return Err(NetError::Shape(format!("payload of {stated} bytes, the shape needs {}", arch.payload_len())));
        }
        let payload = &b[HEADER_LEN..];
        if payload.len() < stated {
            return Err(NetError::Truncated { needed: HEADER_LEN + stated, got: b.len() });
        }
        let payload = &payload[..stated];
        let stored = u64_at(b, 48);
        let computed = fnv1a(payload);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut i16s = payload.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let hidden_weights: Vec<i16> = i16s.by_ref().take(arch.inputs * arch.hidden).collect();
        let hidden_biases: Vec<i16> = i16s.by_ref().take(arch.hidden).collect();
        let output_weights: Vec<i16> = i16s.by_ref().take(arch.buckets * 2 * arch.hidden).collect();
        let tail = &payload[2 * (hidden_weights.len() + hidden_biases.len() + output_weights.len())..];
        let output_biases = tail.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(QuantisedNet { arch, hidden_weights, hidden_biases, output_weights, output_biases })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::INPUTS;

    fn tiny() -> QuantisedNet {
        let arch = Architecture {
            inputs: INPUTS,
            hidden: 4,
            buckets: 2,
            activation: Activation::SCReLU,
            qa: 255,
            qb: 64,
            scale: 400,
        };
        QuantisedNet {
            arch,
            hidden_weights: (0..INPUTS * 4).map(|i| (i % 251) as i16 - 125).collect(),
            hidden_biases: vec![1, -2, 3, -4],
            output_weights: (0..16).map(|i| i as i16 * 3 - 20).collect(),
            output_biases: vec![-70_000, 123],
        }
    }

    #[test]
    fn a_net_survives_a_round_trip() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + net.arch.payload_len());
        assert_eq!(QuantisedNet::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn damaged_files_are_refused_with_their_reason() {
        let bytes = tiny().to_bytes();
        assert!(matches!(QuantisedNet::from_bytes(&bytes[..40]), Err(NetError::Truncated { .. })));
        assert!(matches!(QuantisedNet::from_bytes(&bytes[..bytes.len() - 1]), Err(NetError::Truncated { .. })));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(QuantisedNet::from_bytes(&bad), Err(NetError::BadMagic));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert_eq!(QuantisedNet::from_bytes(&bad), Err(NetError::Version(9)));
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(matches!(QuantisedNet::from_bytes(&bad), Err(NetError::Checksum { .. })));
        let mut bad = bytes;
        bad[12] = 7;
        assert!(matches!(QuantisedNet::from_bytes(&bad), Err(NetError::Shape(_))));
    }
}
