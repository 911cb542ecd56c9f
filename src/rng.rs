//! The one random number generator, seeded and reproducible: the weak player's picks under
//! `Skill Level` (seeded from the clock by the protocol), shuffled and random openings in
//! `sitke match`, openings in `datagen`, shuffles in `tune`, perturbations in SPSA, the
//! integration tests' random games and command lines, and the magic candidates of
//! `build.rs`, which includes this file by path and so it must use nothing but `std`.
//! SplitMix64 passes BigCrush and needs no dependency; nothing here is cryptographic.
//! `new`, `next_u64` and `mix` are `const fn`, so the Zobrist keys in `board::zobrist` are
//! drawn from the same generator at compile time.

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator for item `index` of a run seeded by `seed`: distinct indices give
    /// unrelated streams, so work can be split over threads and resumed without repeats.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        Rng::new(mix(seed ^ mix(index.wrapping_add(0x632b_e59b_d9b4_e019))))
    }

    /// A generator seeded from the system clock, so the weak player differs game to game.
    pub fn from_clock() -> Rng {
        // wasm32-unknown-unknown has no system clock (`SystemTime::now` panics); the host's
        // milliseconds since its start vary from game to game just as well.
        #[cfg(target_arch = "wasm32")]
        let nanos = crate::host::Instant::now().duration_since(crate::host::Instant::ZERO).as_nanos();
        #[cfg(not(target_arch = "wasm32"))]
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos());
        Rng::new(nanos as u64 ^ (nanos >> 64) as u64)
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.state)
    }

    /// A uniform integer in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "empty range");
        // Multiply-shift: unbiased enough for n far below 2^64, and branch-free.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform index in `0..n` (`n` > 0).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A uniformly chosen element of `items` (non-empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi, "empty range");
        lo + self.below(hi - lo + 1)
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// +1 or -1 with equal odds.
    pub fn sign(&mut self) -> i32 {
        if self.next_u64() >> 63 == 0 { 1 } else { -1 }
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

/// The SplitMix64 finaliser: a bijection of u64 that scatters nearby inputs.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut x = Rng::for_item(1, 0);
        let mut y = Rng::for_item(1, 1);
        assert_ne!(x.next_u64(), y.next_u64());
    }

    #[test]
    fn ranges_are_respected_and_covered() {
        let mut r = Rng::new(3);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            let v = r.range(2, 6);
            seen[(v - 2) as usize] += 1;
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        // Each of five values expects 1000 hits; 800 is far outside the noise.
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }

    #[test]
    fn picks_and_chances_follow_their_odds() {
        let mut r = Rng::new(11);
        let items = [10, 20, 30];
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            seen[*r.pick(&items) as usize / 10 - 1] += 1;
            assert!(r.index(7) < 7);
            assert!(!r.chance(0.0) && r.chance(1.0));
        }
        // Expected 1000 each; a quarter expects 2500 of 10,000, 2300 and 2700 are 4.6 sigma.
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
        let hits = (0..10_000).filter(|_| r.chance(0.25)).count();
        assert!((2300..2700).contains(&hits), "{hits}");
    }
}
