/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mfp_entry: the engine's side of every entry point (the contract is in
 * mfp_entry.h).  The settings are in mfp_settings.c, the decay thread and
 * usage in mfp_decay.c, job priorities in mfp_jobs.c, sprio's list in
 * mfp_sprio.c, fair-share through mfp_tree.c into the core.
 */
#include "src/plugin/access/sprio.h"

#include "mfp_entry.h"
#include "mfp_charge.h"
#include "mfp_decay.h"
#include "mfp_jobs.h"
#include "mfp_metrics.h"
#include "mfp_settings.h"
#include "mfp_tree.h"
#include "mfp_usage.h"

static bool _controller;          /* loaded by slurmctld */
static bool _thread_started;

int mfp_init(void)
{
	bool calc_fairshare = true;

	if (!mfa_in_controller()) {
		/* a client (sshare): only the fs factor formula is used */
		mfp_settings_client();
		_controller = false;
		return SLURM_SUCCESS;
	}
	_controller = true;

	if (!slurm_with_slurmdbd()) {
		if (slurm_conf.priority_weight_age)
			error("mfprio: PriorityWeightAge needs SlurmDBD; "
			      "ignoring it");
		if (slurm_conf.priority_weight_fs)
			error("mfprio: PriorityWeightFairshare needs SlurmDBD; "
			      "ignoring it");
		calc_fairshare = false;
	} else if (!assoc_mgr_root_assoc) {
		error("mfprio: no association data from the database: "
		      "fair-share is off until slurmctld restarts with it");
		calc_fairshare = false;
	}
	mfp_settings_read(calc_fairshare, !slurm_with_slurmdbd());

	mfp_conf_enter();
	if (mfp_conf.calc_fairshare) {
		assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK };

		/* Slurm shows root's effective usage as 1 */
		assoc_mgr_lock(&locks);
		assoc_mgr_root_assoc->usage->usage_efctv = 1.0L;
		assoc_mgr_unlock(&locks);
		/* jobs may end (and be charged) before the thread starts */
		mfp_decay_prepare();
	}
	mfa_site_factor_init();
	info("mfprio: priority/multifactor loaded (mfprio %s, fair-share %s)",
	     MFPRIO_VERSION, mf_fs_algo_name(mfp_conf.fs.algo));
	mfp_conf_leave();
	return SLURM_SUCCESS;
}

bool mfp_controller(void)
{
	return _controller;
}

void mfp_thread_start(void)
{
	mfp_conf_enter();
	if (_controller && mfp_conf.calc_fairshare && !_thread_started) {
		mfp_decay_start();
		_thread_started = true;
	}
	mfp_conf_leave();
}

void mfp_initial_priorities(void)
{
	slurmctld_lock_t job_write_lock = {
		.job = WRITE_LOCK, .node = READ_LOCK, .part = READ_LOCK };
	mfp_pass_t pass = { .now = time(NULL) };

	mfp_conf_enter();
	if (_controller && !mfp_conf.calc_fairshare) {
		list_t *jobs = mfa_job_list();

		mfa_ctld_lock(job_write_lock);
		if (jobs)
			list_for_each(jobs, mfp_job_reprioritize, &pass);
		mfa_ctld_unlock(job_write_lock);
	}
	mfp_conf_leave();
}

void mfp_fini(void)
{
	if (!_controller)
		return;
	/* stops the thread if it runs, frees what mfp_decay_prepare() read */
	mfp_decay_stop();
	_thread_started = false;
	mfp_metrics_fini();
	/* no thread left to recompute: the kept fair-share tree goes */
	mfp_tree_forget();
	mfa_site_factor_fini();
	mfa_sprio_fini();
	mfp_settings_reset();
	debug("mfprio: priority/multifactor unloaded");
}

uint32_t mfp_set(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio;

	mfp_conf_enter();
	/* first, so that a new site factor is part of the sum */
	site_factor_g_set(job_ptr);
	prio = mfp_job_priority(job_ptr, time(NULL));
	debug2("mfprio: %pJ priority %u", job_ptr, prio);
	mfp_conf_leave();
	return prio;
}

void mfp_reconfig(bool assoc_clear)
{
	mf_fs_algo_t old_algo;

	if (!_controller)
		return;
	mfp_conf_enter();
	old_algo = mfp_conf.fs.algo;
	mfp_settings_read(mfp_conf.calc_fairshare, false);
	mfp_conf_leave();
	/* from here on, the new settings */
	mfp_conf_enter();
	if (old_algo != mfp_conf.fs.algo)
		info("mfprio: fair-share algorithm %s -> %s",
		     mf_fs_algo_name(old_algo),
		     mf_fs_algo_name(mfp_conf.fs.algo));
	mfp_decay_reconfig();
	/* slurmctld re-added whole time limits to grp_used_tres_run_secs */
	if (assoc_clear)
		mfp_usage_reserve_catch_up(mfp_last_ran());
	if (mfp_conf.calc_fairshare)
		(void) mfp_fairshare_recompute(NULL, NULL);
	mfa_site_factor_reconfig();
	mfp_conf_leave();
	debug2("mfprio: reconfigured");
}

void mfp_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!assoc || !assoc->usage || !assoc_mgr_root_assoc)
		return;
	mfp_conf_enter();
	mfp_tree_set_one(assoc, mfp_conf.fs.algo);
	mfp_conf_leave();
}

void mfp_assoc_fs_factor(slurmdb_assoc_rec_t *assoc)
{
	slurmdb_assoc_rec_t *fs = assoc;

	if (!assoc || !assoc->usage)
		return;
	mfp_conf_enter();
	if (mfp_conf.fs.algo != MF_FS_FAIR_TREE) {
		if (assoc->shares_raw == SLURMDB_FS_USE_PARENT &&
		    assoc->usage->fs_assoc_ptr)
			fs = assoc->usage->fs_assoc_ptr;
		if (!fs->usage || fs->usage->shares_norm <= 0)
			assoc->usage->fs_factor = 0.0;
		else
			assoc->usage->fs_factor = mfp_calc_fs_factor(
				fs->usage->usage_efctv,
				fs->usage->shares_norm);
	}
	mfp_conf_leave();
}

void mfp_job_end(job_record_t *job_ptr)
{
	if (!_controller || !job_ptr)
		return;
	mfp_conf_enter();
	log_flag(PRIO, "mfprio: %pJ ended", job_ptr);
	mfp_charge_job_end(job_ptr);
	mfp_conf_leave();
}
