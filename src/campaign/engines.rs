//! What a campaign gives the mutation engines ([`crate::mutate::Mutator`]): the reference
//! solver's session as a [`Reference`] (STORM's pools shared by all workers, BEC's answers
//! cached per worker), fusion's partner, and a bounded cache of readied mutators.

use super::*;
use crate::mutate::{Mutator, Reference};

/// The seed a fusion turn fuses with, and what the fusion's answers are judged with.
pub(super) struct Partner {
    pub(super) seed: usize,
    /// Both seeds' status: the fusion's answer by construction.
    pub(super) sat: bool,
    /// Solvers that read both seeds.
    pub(super) solvers: Vec<usize>,
    /// Both seeds' limits added (the fusion solves both).
    pub(super) limit: Duration,
    pub(super) seed_blames: Vec<(BugKind, Option<usize>, String)>,
}

/// A partner for seed `i`'s fusion turn: another ready seed with the same known status
/// that some solver reads with it, drawn from the turn's seed (the draw depends on which
/// seeds are ready, so the partner's path is stored with the edit, which replays without
/// the draw). `None` when `i`'s status is unknown or no such seed is ready.
pub(super) fn partner_for(sh: &Shared, i: usize, engine: Engine, turn: u64) -> Option<Partner> {
    let sched = sh.sched.lock().unwrap_or_else(|e| e.into_inner());
    let me = &sched.state[i];
    let sat = me.fusion?;
    let both = |j: usize| -> Vec<usize> {
        me.solvers.iter().copied().filter(|k| sched.state[j].solvers.contains(k)).collect()
    };
    let pool: Vec<usize> = sched
        .ready
        .iter()
        .copied()
        .filter(|&j| j != i && sched.state[j].fusion == Some(sat) && !both(j).is_empty())
        .collect();
    if pool.is_empty() {
        return None;
    }
    let mut rng = Rng::new(mix(&[sh.cfg.seed, sh.run as u64, sh.seeds[i].draw, engine as u64, turn, 0xf05e]));
    let j = pool[crate::mutate::choice::Choices::below(&mut rng, pool.len())?];
    Some(Partner {
        seed: j,
        sat,
        solvers: both(j),
        limit: me.limit + sched.state[j].limit,
        seed_blames: sched.state[j].seed_blames.clone(),
    })
}

/// The reference solver's session of one worker, for one seed's turn.
pub(super) struct SessionReference<'a> {
    pub(super) sh: &'a Shared,
    pub(super) session: &'a mut Session,
    pub(super) seed: usize,
    /// The seed's time limit (BEC's queries) and the campaign's (STORM's model query).
    pub(super) limit: Duration,
    pub(super) campaign_limit: Duration,
    /// BEC's answers by query hash: a turn that asks again costs no call.
    pub(super) answers: &'a mut std::collections::HashMap<u64, crate::mutate::bec::BecAnswer>,
}

impl Reference for SessionReference<'_> {
    /// Boolean Expression Coercion (ValFuzz, Wolff 2021, §3.2): the reference picks
    /// constants under which chosen Boolean sub-terms of the seed are forced true or false.
    fn bec_answer(&mut self, q: &str) -> crate::mutate::bec::BecAnswer {
        let key = crate::util::hash::fnv1a(q.as_bytes());
        if let Some(a) = self.answers.get(&key) {
            return a.clone();
        }
        self.session.set_time_limit(self.limit);
        let a = crate::mutate::file::bec_answer(self.session, q);
        self.sh.counters.solver_calls.fetch_add(1, Relaxed);
        self.answers.insert(key, a.clone());
        a
    }
    /// The STORM pools of the seed, built once for all workers: the reference solver's
    /// model of the seed's assertions (of their negated conjunction if the seed is unsat)
    /// and every fragment's value, in one query.
    fn pools(
        &mut self,
        seed: &Script,
        bounds: &crate::mutate::storm::Bounds,
        rng_seed: u64,
    ) -> Option<Arc<crate::mutate::storm::Pools>> {
        let sh = self.sh;
        if let Some(p) = sh.storm.lock().unwrap_or_else(|e| e.into_inner()).get(&self.seed) {
            return p.clone();
        }
        self.session.set_time_limit(self.campaign_limit);
        let mut calls = 0;
        let built = crate::oracle::witness::pools_for(seed, self.session, bounds, rng_seed, &mut calls);
        sh.counters.solver_calls.fetch_add(calls, Relaxed);
        let pools = built.ok().map(Arc::new);
        if pools.is_none() {
            sh.events.emit(Event::StormNoModel { seed: crate::util::path::shown(&sh.seeds[self.seed].path) });
        }
        sh.storm.lock().unwrap_or_else(|e| e.into_inner()).insert(self.seed, pools.clone());
        pools
    }
}

/// Mutators readied for a seed (sort check, scope walk, sites), kept for their next
/// turns: preparing costs more than the mutants themselves. Bounded; the oldest go first.
#[derive(Default)]
pub(super) struct MutatorCache<'s> {
    /// The reference's answers by query hash ([`SessionReference`]), kept across turns.
    pub(super) reference_answers: std::collections::HashMap<u64, crate::mutate::bec::BecAnswer>,
    map: std::collections::HashMap<(usize, Engine), Box<dyn Mutator<'s> + 's>>,
    /// The entries in the order they were made, with their seed's bytes.
    order: VecDeque<((usize, Engine), usize)>,
    /// The seed bytes behind the entries held.
    bytes: usize,
}

impl<'s> MutatorCache<'s> {
    const CAPACITY: usize = 512;
    /// The seed bytes whose preparations are held at once. A preparation takes about nine
    /// times its seed's text: on a suite of kilobyte seeds all 512 fit, while a seed of
    /// megabytes is held alone, so a turn over its engines keeps one preparation at a
    /// time instead of one per engine (issue 37: memory linear in the input).
    const BYTES: usize = 1 << 20;
    pub(super) fn get(&mut self, sh: &'s Shared, seed: usize, engine: Engine) -> &mut (dyn Mutator<'s> + 's) {
        let key = (seed, engine);
        if !self.map.contains_key(&key) {
            let weight = sh.seeds[seed].script().text.len();
            while !self.order.is_empty() && (self.order.len() >= Self::CAPACITY || self.bytes + weight > Self::BYTES) {
                if let Some((old, bytes)) = self.order.pop_front() {
                    self.map.remove(&old);
                    self.bytes -= bytes;
                }
            }
            self.bytes += weight;
            self.order.push_back((key, weight));
        }
        self.map.entry(key).or_insert_with(|| crate::mutate::mutator(engine)).as_mut()
    }
}
