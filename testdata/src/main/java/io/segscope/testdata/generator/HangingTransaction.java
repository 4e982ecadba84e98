package io.segscope.testdata.generator;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A hanging transaction made on purpose, the way KIP-890 describes them: a transactional batch
 * in a partition for a producer id the transaction coordinator never saw in a transaction, so no
 * coordinator will ever write its COMMIT or ABORT marker and the partition's last stable offset
 * stays at the batch's offset. The producer id is a real one, from an {@code InitProducerId}
 * request without a transactional id (an idempotent producer's); the batch goes out as a plain
 * {@code Produce} request (version 11, the last before transactions V2, which would make the
 * broker add the partition to a transaction) built with kafka-clients' request classes over a
 * socket. The brokers run with {@code transaction.partition.verification.enable=false}, so the
 * leader appends the batch without asking the coordinator (with verification on, it would be
 * refused with {@code INVALID_TXN_STATE}).
 */
final class HangingTransaction {
    private static final short PRODUCE_VERSION = ProduceRequest.LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2;
    private static final short INIT_PRODUCER_ID_VERSION = 4;

    private final String host;
    private final int port;
    private int correlationId = 1;

    /** @param leader {@code host:port} of the partition's leader */
    HangingTransaction(String leader) {
        int colon = leader.lastIndexOf(':');
        this.host = leader.substring(0, colon);
        this.port = Integer.parseInt(leader.substring(colon + 1));
    }

    /**
     * Gets a producer id and appends {@code records} as one transactional batch (sequence 0) to
     * {@code topic}-{@code partition}, acks=-1; returns what was sent and answered, for run.json.
     */
    Map<String, Object> append(String topic, int partition, List<SimpleRecord> records) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 10_000);
            s.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());

            InitProducerIdRequest init = new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                    .setTransactionalId(null).setTransactionTimeoutMs(60_000))
                    .build(INIT_PRODUCER_ID_VERSION);
            InitProducerIdResponse initResponse = (InitProducerIdResponse) send(out, in, init);
            if (initResponse.error() != Errors.NONE) {
                throw new IllegalStateException("InitProducerId failed: " + initResponse.error());
            }
            long producerId = initResponse.data().producerId();
            short epoch = initResponse.data().producerEpoch();

            MemoryRecords batch = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, 0,
                    records.toArray(new SimpleRecord[0]));
            ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                    .setTransactionalId("hanging-no-coordinator");
            ProduceRequestData.TopicProduceData t = new ProduceRequestData.TopicProduceData().setName(topic);
            t.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(batch));
            data.topicData().add(t);
            ProduceRequest produce = new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION);
            ProduceResponse produceResponse = (ProduceResponse) send(out, in, produce);
            ProduceResponseData.PartitionProduceResponse pr = produceResponse.data().responses().iterator().next()
                    .partitionResponses().get(0);
            Errors error = Errors.forCode(pr.errorCode());
            if (error != Errors.NONE) {
                throw new IllegalStateException("transactional Produce refused: " + error + " " + pr.errorMessage());
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("topic", topic);
            m.put("partition", partition);
            m.put("producerId", producerId);
            m.put("producerEpoch", (int) epoch);
            m.put("transactionalIdInProduceRequest", "hanging-no-coordinator");
            m.put("produceRequestVersion", (int) PRODUCE_VERSION);
            m.put("baseOffset", pr.baseOffset());
            m.put("records", records.size());
            List<Long> ts = new ArrayList<>();
            for (SimpleRecord r : records) {
                ts.add(r.timestamp());
            }
            m.put("recordTimestamps", ts);
            return m;
        }
    }

    private AbstractResponse send(DataOutputStream out, DataInputStream in, AbstractRequest request) throws IOException {
        ApiKeys key = request.apiKey();
        RequestHeader header = new RequestHeader(key, request.version(), "segscope-hanging-txn", correlationId++);
        ByteBuffer bytes = request.serializeWithHeader(header);
        out.writeInt(bytes.remaining());
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        out.flush();
        int size = in.readInt();
        byte[] response = new byte[size];
        in.readFully(response);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
    }

    static SimpleRecord record(long timestamp, String key, String value) {
        return new SimpleRecord(timestamp, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }
}
