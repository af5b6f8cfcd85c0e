//! Thompson sampling over Bernoulli rewards with exponential decay (BanditFuzz §3.2: each
//! agent keeps a Beta posterior per action; "decay" forgets old evidence so the agents
//! follow a reward distribution that shifts as the best input changes — the discounted
//! Thompson sampling of Raj and Kalyani, 2017).

use crate::mutate::choice::Rng;
use serde::{Deserialize, Serialize};

/// One agent: a Beta(1 + wins, 1 + losses) posterior per arm, both discounted by `decay`
/// at every update.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Agent {
    pub arms: Vec<String>,
    /// Discounted successes and failures per arm (the prior Beta(1, 1) is added when
    /// sampling).
    pub wins: Vec<f64>,
    pub losses: Vec<f64>,
    /// Undiscounted counts, for the statistics file.
    pub pulls: Vec<u64>,
    pub rewards: Vec<u64>,
    pub decay: f64,
}

impl Agent {
    pub fn new(arms: Vec<String>, decay: f64) -> Agent {
        let n = arms.len();
        Agent { arms, wins: vec![0.0; n], losses: vec![0.0; n], pulls: vec![0; n], rewards: vec![0; n], decay }
    }

    /// Samples each arm's posterior and returns the arm with the largest draw.
    pub fn choose(&self, rng: &mut Rng) -> usize {
        let mut best = (0, f64::NEG_INFINITY);
        for i in 0..self.arms.len() {
            let x = beta(rng, 1.0 + self.wins[i], 1.0 + self.losses[i]);
            if x > best.1 {
                best = (i, x);
            }
        }
        best.0
    }

    /// Every arm's evidence decays; the pulled arm gains a success or a failure.
    pub fn update(&mut self, arm: usize, reward: bool) {
        for i in 0..self.arms.len() {
            self.wins[i] *= self.decay;
            self.losses[i] *= self.decay;
        }
        self.pulls[arm] += 1;
        if reward {
            self.wins[arm] += 1.0;
            self.rewards[arm] += 1;
        } else {
            self.losses[arm] += 1.0;
        }
    }

    /// The posterior mean per arm.
    pub fn means(&self) -> Vec<f64> {
        (0..self.arms.len()).map(|i| (1.0 + self.wins[i]) / (2.0 + self.wins[i] + self.losses[i])).collect()
    }
}

/// Uniform in (0, 1).
pub fn uniform(rng: &mut Rng) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

fn normal(rng: &mut Rng) -> f64 {
    // Box–Muller.
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// Gamma(k, 1) by Marsaglia and Tsang (2000); k < 1 through Gamma(k + 1) · U^(1/k).
fn gamma(rng: &mut Rng, k: f64) -> f64 {
    if k < 1.0 {
        return gamma(rng, k + 1.0) * uniform(rng).powf(1.0 / k);
    }
    let d = k - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = uniform(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
pub fn beta(rng: &mut Rng, a: f64, b: f64) -> f64 {
    let x = gamma(rng, a);
    let y = gamma(rng, b);
    x / (x + y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_samples_have_the_right_mean() {
        let mut rng = Rng::new(3);
        for (a, b) in [(1.0, 1.0), (2.0, 8.0), (0.5, 0.5), (30.0, 10.0)] {
            let n = 20_000;
            let mean = (0..n).map(|_| beta(&mut rng, a, b)).sum::<f64>() / n as f64;
            assert!((mean - a / (a + b)).abs() < 0.01, "Beta({a},{b}) mean {mean}");
        }
    }

    #[test]
    fn the_agent_learns_the_best_arm_and_follows_a_change() {
        let mut rng = Rng::new(9);
        let mut agent = Agent::new(vec!["a".into(), "b".into(), "c".into()], 0.99);
        let mut p = [0.1, 0.5, 0.8];
        let mut late = [0u32; 3];
        for round in 0..4000 {
            if round == 2000 {
                p = [0.9, 0.5, 0.1]; // the environment changes; decay lets the agent follow
            }
            let arm = agent.choose(&mut rng);
            let reward = uniform(&mut rng) < p[arm];
            agent.update(arm, reward);
            if (1500..2000).contains(&round) || round >= 3500 {
                late[arm] += 1;
            }
            if round == 1999 {
                assert!(late[2] > 400, "before the change arm c dominates: {late:?}");
                late = [0; 3];
            }
        }
        assert!(late[0] > 400, "after the change arm a dominates: {late:?}");
        assert_eq!(agent.pulls.iter().sum::<u64>(), 4000);
    }
}
