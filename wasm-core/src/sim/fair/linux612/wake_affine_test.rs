//! `wake_affine` worked by hand (Debian 6.12.117 fair.c: `wake_affine_idle`
//! 7447–7475, `wake_affine_weight` 7478–7518, `wake_affine` 7520–7537;
//! `cfs_h_nr_delayed` 7298). Capacities 1024, imbalance_pct 117, so WA_BIAS
//! weighs the previous CPU by 100 + (117 − 100) / 2 = 108 against 100.

use super::*;

fn busy() -> AffineInputs {
    AffineInputs {
        sync: false,
        this_idle: false,
        prev_idle: false,
        share_cache: true,
        this_nr_running: 2,
        this_h_nr_delayed: 0,
        this_load: 1024,
        prev_load: 2048,
        waker_h_load: 512,
        wakee_h_load: 512,
        this_capacity: 1024,
        prev_capacity: 1024,
        imbalance_pct: 117,
    }
}

fn verdict(x: AffineInputs) -> Affine {
    wake_affine(&x, AffineFeatures::default())
}

#[test]
fn idleness_decides_first() {
    let idle_here = AffineInputs { this_idle: true, ..busy() };
    assert_eq!(verdict(AffineInputs { prev_idle: true, ..idle_here }), Affine::PrevIdleSharedCache);
    assert_eq!(verdict(idle_here), Affine::ThisIdleSharedCache);
    // An idle waker's CPU in another LLC does not count; an idle previous CPU does.
    let elsewhere = AffineInputs { share_cache: false, prev_idle: true, ..idle_here };
    assert_eq!(verdict(elsewhere), Affine::PrevIdle);
    assert!(!Affine::PrevIdle.to_this() && Affine::ThisIdleSharedCache.to_this());
}

#[test]
fn a_sync_wakeup_from_a_cpu_running_only_the_waker_stays_there() {
    // nr_running 1: the waker alone.
    assert_eq!(verdict(AffineInputs { sync: true, this_nr_running: 1, ..busy() }), Affine::ThisSyncAlone);
    // nr_running 3 with 2 delayed (asleep, kept queued by DELAY_DEQUEUE): 3 − 2 = 1, the waker alone.
    let delayed = AffineInputs { sync: true, this_nr_running: 3, this_h_nr_delayed: 2, ..busy() };
    assert_eq!(verdict(delayed), Affine::ThisSyncAlone);
}

#[test]
fn by_weight_the_bias_leans_towards_the_wakers_cpu() {
    // this: (1024 + 512)·100·1024 = 157,286,400; prev: (2048 − 512)·108·1024 = 169,869,312: this is lighter.
    assert_eq!(verdict(busy()), Affine::ThisLighter);
    // prev 1800: (1800 − 512)·108·1024 = 142,442,496 < 157,286,400: the wakee stays near prev.
    assert_eq!(verdict(AffineInputs { prev_load: 1800, ..busy() }), Affine::PrevByWeight);
    // Without WA_BIAS the same loads compare 1536·1024 against 1288·1024: still prev.
    let no_bias = AffineFeatures { wa_bias: false, ..AffineFeatures::default() };
    assert_eq!(wake_affine(&AffineInputs { prev_load: 1800, ..busy() }, no_bias), Affine::PrevByWeight);
    // Where it flips: with the bias this wins once (P − 512)·108 > 1536·100, from P = 1935 (1934: 1422·108 =
    // 153,576 < 153,600); without it only once P − 512 > 1536, from P = 2049. The bias inflates prev's
    // side, so it leans towards the waker's CPU.
    assert_eq!(verdict(AffineInputs { prev_load: 1935, ..busy() }), Affine::ThisLighter);
    assert_eq!(verdict(AffineInputs { prev_load: 1934, ..busy() }), Affine::PrevByWeight);
    assert_eq!(wake_affine(&AffineInputs { prev_load: 2048, ..busy() }, no_bias), Affine::PrevByWeight);
    assert_eq!(wake_affine(&AffineInputs { prev_load: 2049, ..busy() }, no_bias), Affine::ThisLighter);
}

#[test]
fn a_sync_wakeup_counts_the_waker_gone_and_breaks_a_tie_towards_it() {
    // The waker's h_load (1500) is more than its CPU's load (1024): this CPU at once.
    let heavy = AffineInputs { sync: true, waker_h_load: 1500, ..busy() };
    assert_eq!(verdict(heavy), Affine::ThisWakerHeavier);
    // Without the bias, this: (1024 − 512 + 512)·1024 = 1,048,576; prev 1536: (1536 − 512)·1024 =
    // 1,048,576, a tie. Sync adds 1 to prev's side: this is lighter. The same loads without sync: prev.
    let no_bias = AffineFeatures { wa_bias: false, ..AffineFeatures::default() };
    let tie = AffineInputs { prev_load: 1536, ..busy() };
    assert_eq!(wake_affine(&AffineInputs { sync: true, ..tie }, no_bias), Affine::ThisLighter);
    assert_eq!(wake_affine(&AffineInputs { waker_h_load: 0, ..tie }, no_bias), Affine::PrevByWeight);
}

#[test]
fn with_wa_weight_off_an_undecided_wakeup_stays_near_prev() {
    let f = AffineFeatures { wa_weight: false, ..AffineFeatures::default() };
    assert_eq!(wake_affine(&busy(), f), Affine::Prev);
}
