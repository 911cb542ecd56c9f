//! The recipe of a run, and the float checkpoint: the weights, Adam's state, the epochs
//! done and the recipe, in a small file of our own.
//!
//! ```text
//! offset size  field (little-endian)
//!      0    8  magic "SITKEFLT"
//!      8    4  format version (1)
//!     12    4  flags: bit 0 set when Adam's moments follow the weights
//!     16    8  epochs done
//!     24    8  Adam steps taken
//!     32    8  fingerprint of the training set it was trained on
//!     40    4  recipe text length R
//!     44    4  inputs per perspective
//!     48    4  hidden size N
//!     52    4  output buckets B
//!     56    4  activation: 0 CReLU, 1 SCReLU
//!     60    4  reserved, zero
//!     64    8  payload length
//!     72    8  FNV-1a 64 checksum of the payload
//!     80       payload: the recipe as `key=value` lines (R bytes), the parameters as f32
//!              in the net file's order, then (flag bit 0) Adam's first and second moments
//! ```
//! A net's weights alone (flags 0) are about 3 KB per hidden unit: a net with N = 128 is
//! 400 KB, small enough to keep for every accepted net so the next generation can start
//! from it (`--init`). With Adam's state a checkpoint is three times that.
//!
//! Random numbers need no state of their own: epoch e's shuffle is drawn from
//! `Rng::for_item(seed, e)`, so the seed in the recipe and the epoch count are the state.

use super::adam::{Adam, AdamSettings, Schedule};
use super::model::{FloatNet, Shape};
use crate::eval::nnue::Activation;
use crate::eval::nnue::features::INPUTS;
use crate::eval::nnue::file::fnv1a;
use std::fmt::Write as _;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"SITKEFLT";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 80;

/// Everything that decides a run's weights, besides its data.
#[derive(Clone, PartialEq, Debug)]
pub struct Recipe {
    /// The net's shape.
    pub shape: Shape,
    /// Seed of the initial weights, the shuffles and the validation split.
    pub seed: u64,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's base step size.
    pub lr: f64,
    /// The step size's schedule.
    pub schedule: Schedule,
    /// Adam's other settings.
    pub adam: AdamSettings,
    /// Centipawns per unit of the sigmoid's argument.
    pub k: f64,
    /// Weight of the score in the target (the rest is the game result).
    pub lambda: f64,
    /// The same weight for positions of games the 50-move rule or the count drew (None: as
    /// `lambda`).
    pub rule_draw_lambda: Option<f64>,
    /// Whether `rule_draw_lambda` is reached only at a rule-drawn game's end, moving there
    /// from `lambda` through the game (`Objective::rule_draw_ramp`).
    pub rule_draw_ramp: bool,
    /// Positions whose score exceeds this in magnitude are left out (None: none are).
    pub max_score: Option<i32>,
    /// Whether the 50-move rule's factor is divided out of the scores.
    pub unscale_rule50: bool,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// The hash of the float net the run started from (None: random weights).
    pub init: Option<String>,
}

/// Activation as the recipe and the command line spell it.
pub fn activation_name(a: Activation) -> &'static str {
    match a {
        Activation::CReLU => "crelu",
        Activation::SCReLU => "screlu",
    }
}

/// Reads an activation's name.
pub fn parse_activation(s: &str) -> Result<Activation, String> {
    match s.to_ascii_lowercase().as_str() {
        "crelu" => Ok(Activation::CReLU),
        "screlu" => Ok(Activation::SCReLU),
        _ => Err(format!("unknown activation '{s}': crelu or screlu")),
    }
}

impl Recipe {
    /// The recipe as `key=value` lines, the form the docs record nets by.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let mut line = |k: &str, v: String| {
            let _ = writeln!(t, "{k}={v}");
        };
        line("hidden", self.shape.hidden.to_string());
        line("buckets", self.shape.buckets.to_string());
        line("activation", activation_name(self.shape.activation).to_string());
        line("seed", self.seed.to_string());
        line("epochs", self.epochs.to_string());
        line("batch", self.batch.to_string());
        line("lr", self.lr.to_string());
        line("schedule", self.schedule.to_string());
        line("beta1", self.adam.beta1.to_string());
        line("beta2", self.adam.beta2.to_string());
        line("weight_decay", self.adam.weight_decay.to_string());
        line("k", self.k.to_string());
        line("lambda", self.lambda.to_string());
        line("rule_draw_lambda", self.rule_draw_lambda.map_or("same".into(), |l| l.to_string()));
        line("rule_draw_ramp", if self.rule_draw_ramp { "ramp" } else { "flat" }.to_string());
        line("max_score", self.max_score.map_or("none".into(), |m| m.to_string()));
        line("rule50", if self.unscale_rule50 { "unscale" } else { "keep" }.to_string());
        line("validation", self.validation.to_string());
        line("init", self.init.clone().unwrap_or_else(|| "none".into()));
        t
    }

    /// Reads `to_text`'s output.
    pub fn from_text(text: &str) -> Result<Recipe, String> {
        let mut map = std::collections::HashMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (k, v) = line.split_once('=').ok_or_else(|| format!("recipe line '{line}' has no '='"))?;
            map.insert(k.trim(), v.trim());
        }
        let get = |k: &str| map.get(k).copied().ok_or_else(|| format!("the recipe has no '{k}'"));
        fn num<T: std::str::FromStr>(k: &str, v: &str) -> Result<T, String> {
            v.parse().map_err(|_| format!("recipe: {k}='{v}' is not a number"))
        }
        let shape = Shape {
            hidden: num("hidden", get("hidden")?)?,
            buckets: num("buckets", get("buckets")?)?,
            activation: parse_activation(get("activation")?)?,
        };
        Ok(Recipe {
            shape,
            seed: num("seed", get("seed")?)?,
            epochs: num("epochs", get("epochs")?)?,
            batch: num("batch", get("batch")?)?,
            lr: num("lr", get("lr")?)?,
            schedule: get("schedule")?.parse()?,
            adam: AdamSettings {
                beta1: num("beta1", get("beta1")?)?,
                beta2: num("beta2", get("beta2")?)?,
                weight_decay: num("weight_decay", get("weight_decay")?)?,
            },
            k: num("k", get("k")?)?,
            lambda: num("lambda", get("lambda")?)?,
            // Recipes written before the setting existed weigh every game alike.
            rule_draw_lambda: match map.get("rule_draw_lambda").copied().unwrap_or("same") {
                "same" => None,
                v => Some(num("rule_draw_lambda", v)?),
            },
            rule_draw_ramp: match map.get("rule_draw_ramp").copied().unwrap_or("flat") {
                "flat" => false,
                "ramp" => true,
                v => return Err(format!("recipe: rule_draw_ramp='{v}' is neither flat nor ramp")),
            },
            max_score: match get("max_score")? {
                "none" => None,
                v => Some(num("max_score", v)?),
            },
            unscale_rule50: match get("rule50")? {
                "unscale" => true,
                "keep" => false,
                v => return Err(format!("recipe: rule50='{v}' is neither unscale nor keep")),
            },
            validation: num("validation", get("validation")?)?,
            init: match get("init")? {
                "none" => None,
                v => Some(v.to_string()),
            },
        })
    }

    /// The settings in which `other` differs from this recipe, as `key: ours -> theirs`;
    /// the epoch count and the starting net are left out (a resumed run may extend a run,
    /// and its weights come from the checkpoint).
    pub fn differences(&self, other: &Recipe) -> Vec<String> {
        let ours = self.to_text();
        let theirs = other.to_text();
        ours.lines()
            .zip(theirs.lines())
            .filter(|(a, b)| a != b && !a.starts_with("epochs=") && !a.starts_with("init="))
            .map(|(a, b)| format!("{a} -> {}", b.split_once('=').map_or(b, |(_, v)| v)))
            .collect()
    }
}

/// A float net, with what a resumed run needs.
#[derive(Clone, PartialEq, Debug)]
pub struct Checkpoint {
    /// How the run was set up.
    pub recipe: Recipe,
    /// The weights.
    pub net: FloatNet,
    /// Adam's state (None in a weights-only file).
    pub adam: Option<Adam>,
    /// Epochs done.
    pub epoch: usize,
    /// Fingerprint of the training set (`Dataset::fingerprint`).
    pub data: u64,
}

fn put_f32s(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let recipe = self.recipe.to_text();
        let mut payload = recipe.as_bytes().to_vec();
        put_f32s(&mut payload, &self.net.params);
        if let Some(a) = &self.adam {
            put_f32s(&mut payload, &a.m);
            put_f32s(&mut payload, &a.v);
        }
        let s = &self.net.shape;
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.adam.is_some() as u32).to_le_bytes());
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        out.extend_from_slice(&self.adam.as_ref().map_or(0, |a| a.t).to_le_bytes());
        out.extend_from_slice(&self.data.to_le_bytes());
        let activation = (s.activation == Activation::SCReLU) as u32;
        for v in [recipe.len() as u32, INPUTS as u32, s.hidden as u32, s.buckets as u32, activation, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a checkpoint, checking what the header promises.
    pub fn from_bytes(b: &[u8]) -> Result<Checkpoint, String> {
        if b.len() < HEADER_LEN {
            return Err(format!("file too short: {} bytes", b.len()));
        }
        if &b[..8] != MAGIC {
            return Err("not a Sitke float checkpoint (bad magic)".into());
        }
        if u32_at(b, 8) != VERSION {
            return Err(format!("checkpoint format version {}, this build reads {VERSION}", u32_at(b, 8)));
        }
        let has_adam = u32_at(b, 12) & 1 == 1;
        let recipe_len = u32_at(b, 40) as usize;
        if u32_at(b, 44) as usize != INPUTS {
            return Err(format!("{} inputs, this build has {INPUTS}", u32_at(b, 44)));
        }
        let activation = match u32_at(b, 56) {
            0 => Activation::CReLU,
            1 => Activation::SCReLU,
            c => return Err(format!("activation code {c}")),
        };
        let shape = Shape { hidden: u32_at(b, 48) as usize, buckets: u32_at(b, 52) as usize, activation };
        if shape.hidden == 0 || shape.hidden > 4096 || shape.buckets == 0 || shape.buckets > 32 {
            return Err(format!("hidden {} buckets {}", shape.hidden, shape.buckets));
        }
        let n = shape.params();
        let stated = u64_at(b, 64) as usize;
        let needed = recipe_len + 4 * n * if has_adam { 3 } else { 1 };
        if stated != needed {
            return Err(format!("payload of {stated} bytes, the shape needs {needed}"));
        }
        let payload = b
            .get(HEADER_LEN..HEADER_LEN + stated)
            .ok_or_else(|| format!("file too short: {} bytes, {} needed", b.len(), HEADER_LEN + stated))?;
        if fnv1a(payload) != u64_at(b, 72) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let text = std::str::from_utf8(&payload[..recipe_len]).map_err(|_| "the recipe is not UTF-8".to_string())?;
        let recipe = Recipe::from_text(text)?;
        if recipe.shape != shape {
            return Err(format!("the recipe's shape {:?} is not the header's {shape:?}", recipe.shape));
        }
        let mut floats =
            payload[recipe_len..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let params: Vec<f32> = floats.by_ref().take(n).collect();
        let adam = has_adam.then(|| Adam {
            m: floats.by_ref().take(n).collect(),
            v: floats.by_ref().take(n).collect(),
            t: u64_at(b, 24),
        });
        Ok(Checkpoint {
            recipe,
            net: FloatNet { shape, params },
            adam,
            epoch: u64_at(b, 16) as usize,
            data: u64_at(b, 32),
        })
    }

    /// The hash that names the float net: of its weights alone, so the same net with or
    /// without Adam's state has one name.
    pub fn net_hash(net: &FloatNet) -> String {
        let mut bytes = Vec::with_capacity(4 * net.params.len());
        put_f32s(&mut bytes, &net.params);
        format!("{:016x}", fnv1a(&bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn recipe() -> Recipe {
        Recipe {
            shape: Shape { hidden: 4, buckets: 2, activation: Activation::SCReLU },
            seed: 9,
            epochs: 12,
            batch: 1000,
            lr: 0.001,
            schedule: Schedule::Cosine { floor: 0.05 },
            adam: AdamSettings { beta1: 0.9, beta2: 0.999, weight_decay: 0.01 },
            k: 400.0,
            lambda: 0.75,
            rule_draw_lambda: Some(0.5),
            rule_draw_ramp: true,
            max_score: Some(3000),
            unscale_rule50: true,
            validation: 0.1,
            init: None,
        }
    }

    #[test]
    fn a_recipe_from_before_rule_draw_weights_weighs_every_game_alike() {
        let r = recipe();
        let text = r.to_text();
        assert!(text.contains("rule_draw_lambda=0.5\n"));
        assert_eq!(Recipe::from_text(&text), Ok(r.clone()));
        assert!(text.contains("rule_draw_ramp=ramp\n"));
        let old: String = text.lines().filter(|l| !l.starts_with("rule_draw_")).map(|l| format!("{l}\n")).collect();
        let read = Recipe::from_text(&old).unwrap();
        assert_eq!(read, Recipe { rule_draw_lambda: None, rule_draw_ramp: false, ..r.clone() });
        assert!(read.to_text().contains("rule_draw_lambda=same\nrule_draw_ramp=flat\n"));
        assert_eq!(
            r.differences(&read),
            vec!["rule_draw_lambda=0.5 -> same".to_string(), "rule_draw_ramp=ramp -> flat".to_string()]
        );
        let bad = text.replace("rule_draw_ramp=ramp", "rule_draw_ramp=steep");
        assert!(Recipe::from_text(&bad).unwrap_err().contains("steep"));
    }

    #[test]
    fn a_checkpoint_survives_a_round_trip() {
        let r = recipe();
        let net = FloatNet::random(r.shape, 3);
        let mut adam = Adam::new(net.params.len());
        adam.m[5] = 0.25;
        adam.v[7] = 1e-9;
        adam.t = 77;
        let ck = Checkpoint { recipe: r.clone(), net: net.clone(), adam: Some(adam), epoch: 4, data: 0xfeed };
        assert_eq!(Checkpoint::from_bytes(&ck.to_bytes()), Ok(ck.clone()));
        let light = Checkpoint { adam: None, ..ck.clone() };
        let bytes = light.to_bytes();
        assert!(bytes.len() * 2 < ck.to_bytes().len());
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(light));
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().contains("checksum"));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("too short"));
        let mut bad = bytes;
        bad[0] = b'X';
        assert!(Checkpoint::from_bytes(&bad).unwrap_err().contains("magic"));
    }

    #[test]
    fn recipes_read_back_and_name_their_differences() {
        let r = recipe();
        assert_eq!(Recipe::from_text(&r.to_text()), Ok(r.clone()));
        let other = Recipe { lr: 0.002, epochs: 20, max_score: None, init: Some("ab".into()), ..r.clone() };
        assert_eq!(r.differences(&other), vec!["lr=0.001 -> 0.002".to_string(), "max_score=3000 -> none".to_string()]);
        assert!(Recipe::from_text("hidden=4").is_err());
    }
}
