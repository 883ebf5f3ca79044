package render

// Rect is an axis-aligned rectangle in canvas pixels (origin top-left).
type Rect struct{ X, Y, W, H float64 }

// eps absorbs floating-point noise in containment tests.
const eps = 1e-6

// Right and Bottom are the far edges.
func (r Rect) Right() float64  { return r.X + r.W }
func (r Rect) Bottom() float64 { return r.Y + r.H }

// Center is the middle of r.
func (r Rect) Center() (x, y float64) { return r.X + r.W/2, r.Y + r.H/2 }

// Contains reports whether o lies inside r (edges may touch).
func (r Rect) Contains(o Rect) bool {
	return o.X >= r.X-eps && o.Y >= r.Y-eps && o.Right() <= r.Right()+eps && o.Bottom() <= r.Bottom()+eps
}

// Overlaps reports whether r and o share interior area (touching edges do not count).
func (r Rect) Overlaps(o Rect) bool {
	return r.X < o.Right()-eps && o.X < r.Right()-eps && r.Y < o.Bottom()-eps && o.Y < r.Bottom()-eps
}

// Inset shrinks r by d on every side (never below zero size).
func (r Rect) Inset(d float64) Rect {
	r.X += d
	r.Y += d
	r.W = max(0, r.W-2*d)
	r.H = max(0, r.H-2*d)
	return r
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
