package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;

import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A {@code @ChannelParam} without a name, in a class compiled without parameter names (no {@code -parameters}, no
 * debug information): the build fails and asks for the name, instead of binding a key nobody chose.
 */
class ChannelParamWithoutNameTest {

    private static final String CLASS = "io.quarkiverse.cable.test.nameless.Nameless";
    private static final String SOURCE = """
            package io.quarkiverse.cable.test.nameless;

            @io.quarkiverse.cable.CableChannel("Nameless")
            public class Nameless {
                @io.quarkiverse.cable.OnSubscribe
                void join(@io.quarkiverse.cable.ChannelParam String room) {
                }
            }
            """;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.add(new ByteArrayAsset(compileWithoutNames()),
                    CLASS.replace('.', '/') + ".class"))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .assertException(t -> assertThat(UnknownDatasourceTest.rootMessage(t))
                    .contains("@OnSubscribe " + CLASS + "#join: @ChannelParam on parameter 1 (java.lang.String)")
                    .contains("needs the identifier's key, @ChannelParam(\"name\")"));

    @Test
    void buildFails() {
        fail("The build should have failed");
    }

    /** The class as javac writes it with {@code -g:none} and without {@code -parameters}. */
    private static byte[] compileWithoutNames() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StandardJavaFileManager standard = javac.getStandardFileManager(null, null, null);
        JavaFileManager output = new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                    FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return bytes;
                    }
                };
            }
        };
        JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///" + CLASS.replace('.', '/') + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return SOURCE;
            }
        };
        boolean compiled = javac.getTask(null, output, null,
                List.of("-g:none", "-classpath", System.getProperty("java.class.path")), null, List.of(source)).call();
        if (!compiled) {
            throw new IllegalStateException("The test channel did not compile");
        }
        return bytes.toByteArray();
    }
}
