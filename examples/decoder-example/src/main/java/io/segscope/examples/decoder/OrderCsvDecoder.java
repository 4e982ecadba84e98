package io.segscope.examples.decoder;

import io.segscope.format.walk.spi.RecordDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An example {@link RecordDecoder}: the topics named {@code orders-csv*} hold values
 * {@code id,amount,currency} (UTF-8) and keys that are a customer name. Values become objects
 * {@code {"id": <int>, "amount": <decimal string>, "currency": <string>}}; a value that is not
 * three fields fails, and segscope prints the record raw with the error.
 */
public final class OrderCsvDecoder implements RecordDecoder {
    @Override
    public String name() {
        return "order-csv";
    }

    @Override
    public boolean handles(String topic) {
        return topic.startsWith("orders-csv");
    }

    @Override
    public Object decodeKey(String topic, ByteBuffer key) {
        return StandardCharsets.UTF_8.decode(key).toString();
    }

    @Override
    public Object decodeValue(String topic, ByteBuffer value) {
        String[] f = StandardCharsets.UTF_8.decode(value).toString().split(",", -1);
        if (f.length != 3) {
            throw new IllegalArgumentException("expected id,amount,currency, got " + f.length + " field(s)");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", Long.parseLong(f[0].trim()));
        m.put("amount", f[1].trim());
        m.put("currency", f[2].trim());
        return m;
    }
}
