package frame

// The presenter's state a frame carries (app/seek.go, app/chapters.go):
// the timeline under the machine and the demo script.

// SeekStats describe the last seek of side A: what it restored and how much
// it re-simulated.
type SeekStats struct {
	FromMS      float64 `json:"from_ms"`
	ToMS        float64 `json:"to_ms"`
	RestoredMS  float64 `json:"restored_ms"` // time of the checkpoint restored, -1: none (ran on)
	ResimMS     float64 `json:"resim_ms"`    // simulated time run again (already simulated before)
	NewMS       float64 `json:"new_ms"`      // simulated time run for the first time
	ResimEvents int64   `json:"resim_events"`
	Short       bool    `json:"short"` // stopped by app.MaxSeekWork before the time
}

// Timeline is what the scrubber draws (window.schedplay.timeline()).
type Timeline struct {
	NowMS         float64   `json:"now_ms"`
	DurationMS    float64   `json:"duration_ms"`
	FrontierMS    float64   `json:"frontier_ms"` // the furthest time simulated
	IntervalMS    float64   `json:"interval_ms"` // checkpoint interval
	Checkpoints   int       `json:"checkpoints"`
	CheckpointMB  float64   `json:"checkpoint_mb"`
	Causes        []string  `json:"causes"`
	Marks         [][]int32 `json:"marks"`     // per cause: MarkBins counts of migrations
	MarksRev      int64     `json:"marks_rev"` // changes when Marks do (a frame may leave Marks out)
	Seeks         int64     `json:"seeks"`
	LastSeek      SeekStats `json:"last_seek"`
	MaxResimMS    float64   `json:"max_resim_ms"` // the most any seek re-simulated
	MaxResimEvent int64     `json:"max_resim_events"`
}

// ChapterInfo is the demo script as the page shows it.
type ChapterInfo struct {
	Current  int      `json:"current"` // 1-based; 0: none
	Captions []string `json:"captions"`
	Caption  string   `json:"caption"` // the current chapter's
	// Does is the current chapter in words: what it changed and where it
	// went.
	Does string `json:"does"`
}
