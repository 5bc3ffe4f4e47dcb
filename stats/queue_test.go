package stats

import (
	"math"
	"testing"
)

func TestMM1HandChecked(t *testing.T) {
	// lambda 0.8, mu 1: rho 0.8, response 1/(1-0.8) = 5, wait 5 - 1 = 4.
	if got := MM1Response(0.8, 1); !closeRel(got, 5, 1e-12) {
		t.Errorf("MM1Response(0.8,1) = %v, want 5", got)
	}
	if got := MM1Wait(0.8, 1); !closeRel(got, 4, 1e-12) {
		t.Errorf("MM1Wait(0.8,1) = %v, want 4", got)
	}
	// lambda 1, mu 4: response 1/3, wait 0.25/3.
	if got := MM1Response(1, 4); !closeRel(got, 1.0/3, 1e-12) {
		t.Errorf("MM1Response(1,4) = %v", got)
	}
	if got := MM1Wait(1, 4); !closeRel(got, 0.25/3, 1e-12) {
		t.Errorf("MM1Wait(1,4) = %v", got)
	}
	// Empty system: no waiting.
	if MM1Wait(0, 2) != 0 || MM1Response(0, 2) != 0.5 {
		t.Errorf("lambda 0: wait %v response %v", MM1Wait(0, 2), MM1Response(0, 2))
	}
}

func TestErlangCHandChecked(t *testing.T) {
	// c=2, a=1: sum_{k<2} a^k/k! = 2; a^2/2! * 2/(2-1) = 1; C = 1/(2+1).
	if got := ErlangC(2, 1); !closeRel(got, 1.0/3, 1e-12) {
		t.Errorf("ErlangC(2,1) = %v, want 1/3", got)
	}
	// c=1: C = rho.
	if got := ErlangC(1, 0.7); !closeRel(got, 0.7, 1e-12) {
		t.Errorf("ErlangC(1,0.7) = %v, want 0.7", got)
	}
	if ErlangC(3, 0) != 0 {
		t.Errorf("ErlangC(3,0) = %v, want 0", ErlangC(3, 0))
	}
}

// erlangCDirect is the textbook formula
// C = (a^c/c! * c/(c-a)) / (sum_{k<c} a^k/k! + a^c/c! * c/(c-a)),
// evaluated term by term; fine for small c.
func erlangCDirect(c int, a float64) float64 {
	var sum float64
	term := 1.0 // a^k / k!
	for k := 0; k < c; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	// term is now a^c / c!.
	tail := term * float64(c) / (float64(c) - a)
	return tail / (sum + tail)
}

func TestMMcEightServers(t *testing.T) {
	const lambda, mu, c = 5.6, 1.0, 8
	a := lambda / mu
	direct := erlangCDirect(c, a)
	// The same value by exact rational arithmetic, done by hand once.
	const exact = 0.27060293223000226
	if !closeRel(direct, exact, 1e-12) {
		t.Fatalf("direct formula %v, want %v", direct, exact)
	}
	if got := ErlangC(c, a); !closeRel(got, direct, 1e-12) {
		t.Errorf("ErlangC(8, 5.6) = %v, want %v", got, direct)
	}
	wantWait := direct / (c*mu - lambda)
	if got := MMcWait(lambda, mu, c); !closeRel(got, wantWait, 1e-12) {
		t.Errorf("MMcWait = %v, want %v", got, wantWait)
	}
	if got := MMcResponse(lambda, mu, c); !closeRel(got, wantWait+1/mu, 1e-12) {
		t.Errorf("MMcResponse = %v, want %v", got, wantWait+1/mu)
	}
}

func TestErlangCAgreesWithDirectFormula(t *testing.T) {
	for c := 1; c <= 30; c++ {
		for _, rho := range []float64{0.05, 0.3, 0.5, 0.8, 0.95, 0.999} {
			a := rho * float64(c)
			if got, want := ErlangC(c, a), erlangCDirect(c, a); !closeRel(got, want, 1e-9) {
				t.Errorf("ErlangC(%d, %v) = %v, direct %v", c, a, got, want)
			}
		}
	}
}

func TestErlangCLargeC(t *testing.T) {
	// The direct formula overflows (a^c) for c in the thousands; the
	// recursion must not. Results must be probabilities, and with rho
	// fixed the probability of waiting falls as c grows (economy of scale).
	prev := 1.0
	for _, c := range []int{100, 1000, 10000, 100000} {
		got := ErlangC(c, 0.9*float64(c))
		if !(got > 0 && got < prev) {
			t.Errorf("ErlangC(%d, 0.9c) = %v, previous %v", c, got, prev)
		}
		prev = got
	}
}

func TestMMcOneServerIsMM1(t *testing.T) {
	for _, lambda := range []float64{0, 0.1, 0.5, 0.8, 0.99} {
		if got, want := MMcWait(lambda, 1, 1), MM1Wait(lambda, 1); !closeRel(got, want, 1e-12) {
			t.Errorf("lambda %v: MMcWait c=1 %v, MM1Wait %v", lambda, got, want)
		}
		if got, want := MMcResponse(lambda, 1, 1), MM1Response(lambda, 1); !closeRel(got, want, 1e-12) {
			t.Errorf("lambda %v: MMcResponse c=1 %v, MM1Response %v", lambda, got, want)
		}
	}
}

func TestQueueUnstableAndInvalid(t *testing.T) {
	inf := math.Inf(1)
	for name, got := range map[string]float64{
		"MM1Response rho=1":   MM1Response(1, 1),
		"MM1Wait rho>1":       MM1Wait(2, 1),
		"MMcWait rho=1":       MMcWait(4, 1, 4),
		"MMcResponse rho>1":   MMcResponse(9, 1, 4),
		"MMcResponse rho=1.0": MMcResponse(2, 0.5, 4),
	} {
		if got != inf {
			t.Errorf("%s = %v, want +Inf", name, got)
		}
	}
	if got := ErlangC(4, 4); got != 1 {
		t.Errorf("ErlangC(4,4) = %v, want 1", got)
	}
	if got := ErlangC(4, 7); got != 1 {
		t.Errorf("ErlangC(4,7) = %v, want 1", got)
	}
	for name, got := range map[string]float64{
		"MM1Response lambda<0": MM1Response(-1, 1),
		"MM1Wait mu=0":         MM1Wait(0.5, 0),
		"MM1Wait NaN":          MM1Wait(math.NaN(), 1),
		"MM1Response mu=Inf":   MM1Response(1, inf),
		"ErlangC c=0":          ErlangC(0, 0.5),
		"ErlangC a<0":          ErlangC(2, -1),
		"ErlangC a=NaN":        ErlangC(2, math.NaN()),
		"ErlangC a=Inf":        ErlangC(2, inf),
		"MMcWait c=0":          MMcWait(1, 1, 0),
		"MMcResponse mu<0":     MMcResponse(1, -1, 2),
	} {
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN", name, got)
		}
	}
}
