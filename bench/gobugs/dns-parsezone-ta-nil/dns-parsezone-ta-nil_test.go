package bug

import (
	"bytes"
	"testing"

	"github.com/miekg/dns"
)

func FuzzParseZone(f *testing.F) {
	f.Add([]byte("$ORIGIN example.org.\n$TTL 3600\n@ IN SOA ns1 hostmaster 2018091901 7200 3600 1209600 3600\n  IN NS ns1\nns1 IN A 192.0.2.1\n"))
	f.Add([]byte("www.example.org. 300 IN CNAME example.org.\nexample.org. IN MX 10 mx.example.org.\n"))
	f.Add([]byte("dnssec.example. 3600 IN DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118\n"))
	f.Add([]byte("txt.example. 300 IN TXT \"v=spf1 -all\" ; comment\n_sip._tcp.example.com. 86400 IN SRV 0 5 5060 sip.example.com.\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for x := range dns.ParseZone(bytes.NewReader(data), "", "") {
			if x.Error != nil {
				continue
			}
			_ = x.RR.String()
		}
	})
}
