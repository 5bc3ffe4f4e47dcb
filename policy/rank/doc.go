// Package rank is Job Ranking Backfilling (JRB; al-najjar-2019, after
// Rodero, Guim and Corbalán 2009): a central queue over the machines of a
// platform in which every waiting job carries a rank, computed once at
// submission from its CPUs, its memory per CPU in MB and the CPU speed it
// requires, and the scheduler starts the smallest rank among the jobs that
// fit now.
//
// # Ranks (Rank)
//
//   - original (Eq. 1): 3000*CPU + 75*Mem + 10*Speed;
//   - linear (Tables 2-3): 6.565*CPU - 0.011*Mem + 257.099 (Eq. 5 prints
//     the constant as 57.099, a typo: the tables give 257.0989);
//   - log (Tables 6-7): 568.756*log10(CPU) + 91.513*log10(Mem) + 10.130,
//     where the log10 of a value below 1 (unknown memory = 0, memory below
//     1 MB, or a negative value) counts as 0, so a rank is always finite;
//   - linear or log with the coefficients (constant, cpu, mem) of the fit
//     command (WithCoefficients).
//
// Mem is the job's memory per processor (job.Info.Mem, KB) / 1024: MB.
//
// # The pass
//
// At each scheduling pass (after all completions and arrivals of the
// instant): repeat { among the waiting jobs that fit now on some machine
// (enough free CPUs on a machine that can hold the job: CPUs, memory per
// CPU, speed), start the one of smallest rank (ties: submit time, then job
// id) on the first machine in index order where it fits } until no
// waiting job fits. Because a start only ever takes CPUs away, a job that
// did not fit earlier in the pass cannot fit later in it, so the repeat
// loop is one walk of the queue in rank order: O(queue) per pass, stopping
// as soon as no machine has a free CPU.
//
// A job that no machine can ever hold gets rank -1 in the paper and never
// starts. Here it is refused at submission (Refuse, the policy.Screener
// contract: the runner drops it before the model sees it and counts it);
// a job handed to Submit anyway is counted in Refused and never queued.
//
// # Options (Options)
//
//   - Head: HeadNone (default; nothing in the paper mentions a reservation
//     or a special head job), HeadFCFS (start the job at the head of the
//     submit order whenever it fits, then the smallest ranks; no
//     reservation) or HeadEASY (an EASY reservation for the head of the
//     submit order: when it does not fit it reserves the machine where it
//     can start earliest given the estimated ends of the running jobs, ties
//     to the lowest index; then the other jobs, in rank order, start on the
//     reserved machine only if they end by its shadow time or need no more
//     than its extra CPUs, exactly as in EASY backfilling). HeadEASY is the
//     only mode that reads estimates.
//   - PositiveOnly: the literal "select the job with the smallest positive
//     rank": a job whose rank is <= 0 would never start, so it is refused
//     at submission and counted, like a rank -1 job.
//
// Start reasons: backfilled if a job submitted before it (submit time,
// job id) is still waiting when it starts; otherwise immediate if it
// starts at its submit instant, reserved if it had to wait.
package rank
