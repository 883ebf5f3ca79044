package pagemodel

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"

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
	b, err := bilevelPNG(c.Size+8, func(x, y int) bool { return c.Dark(x-4, y-4) })
	if err != nil {
		return "", 0, err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b), c.Version, nil
}

// bilevelPNG encodes an n x n black-and-white image as a PNG (greyscale,
// one bit a pixel, 1 white; no filter). Written out here rather than with
// image/png, which costs the page 24 kB of its gzip download for this one
// image (issue 19); the PNG format: ISO/IEC 15948, chunks of length, type,
// data and the CRC-32 of type and data, the pixels in one zlib stream.
func bilevelPNG(n int, dark func(x, y int) bool) ([]byte, error) {
	var pix bytes.Buffer
	z, err := zlib.NewWriterLevel(&pix, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	row := make([]byte, 1+(n+7)/8) // filter type 0, then the bits
	for y := range n {
		clear(row)
		for x := range n {
			if !dark(x, y) {
				row[1+x/8] |= 0x80 >> (x % 8)
			}
		}
		if _, err := z.Write(row); err != nil {
			return nil, err
		}
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
		start := b.Len()
		b.WriteString(typ)
		b.Write(data)
		b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes()[start:])))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(n))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(n))
	ihdr = append(ihdr, 1, 0, 0, 0, 0) // bit depth 1, greyscale, deflate, no filter, no interlace
	chunk("IHDR", ihdr)
	chunk("IDAT", pix.Bytes())
	chunk("IEND", nil)
	return b.Bytes(), nil
}
