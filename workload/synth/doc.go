// Package synth generates synthetic workloads: Poisson arrivals and
// exponential service demands (the queueing models of the papers), each
// drawn from its own seeded stream so that policies compared with the same
// seed see exactly the same jobs (common random numbers). Beside them:
// the gang model's locals and gangs, klusacek-2008's heterogeneous
// machines and jobs (Hetero), and al-najjar-2019's JRB workload
// (JRBJobs), which is also the declared workload model "jrb" of the
// cluster model's scenarios (DeclareJRB, package workload/model), and
// hafshejani-2012's parallel jobs (NewHafshejani, the declared model
// "hafshejani": DeclareHafshejani), generated as the run asks for them.
package synth
