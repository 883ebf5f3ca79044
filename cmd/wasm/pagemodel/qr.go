package pagemodel

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"

	"schedplay/internal/qr"
)

// QR is a PNG data URL of text as a QR code (level L: the smallest symbol
// for a long link), one pixel per module with the standard's quiet zone of
// four modules (the page scales it up without smoothing), and the symbol's
// version.
func QR(text string) (url string, version int, err error) {
	c, err := qr.Encode([]byte(text), qr.L)
	if err != nil {
		return "", 0, err
	}
	n := c.Size + 8
	im := image.NewGray(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			v := uint8(255)
			if c.Dark(x-4, y-4) {
				v = 0
			}
			im.SetGray(x, y, color.Gray{Y: v})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, im); err != nil {
		return "", 0, err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes()), c.Version, nil
}
