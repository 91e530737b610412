package io.quarkiverse.cable.bench.loadgen;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * PNG charts in the style of the "Solid Cable vs Redis" slides: white background, one colour per backend that stays
 * the same in every chart, large type. Rendering only; what to plot is the report's choice.
 */
final class Charts {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 600;
    private static final String FONT = "DejaVu Sans";
    private static final Paint[] PALETTE = {
            new Color(0xD62728), // red, the first backend: the Redis baseline in a normal report
            new Color(0x1F77B4), new Color(0x2CA02C), new Color(0xFF7F0E), new Color(0x9467BD), new Color(0x8C564B),
            new Color(0xE377C2), new Color(0x7F7F7F), new Color(0x17BECF), new Color(0xBCBD22) };

    private final List<String> backends;

    /** @param backends every backend of the report, in the order that assigns the colours */
    Charts(List<String> backends) {
        this.backends = backends;
    }

    /** One line per backend: x = users, y = the figure. */
    void line(Path file, String title, String xLabel, String yLabel, Map<String, SortedMap<Integer, Double>> series)
            throws IOException {
        XYSeriesCollection dataset = new XYSeriesCollection();
        series.forEach((backend, points) -> {
            XYSeries line = new XYSeries(backend);
            points.forEach(line::add);
            dataset.addSeries(line);
        });
        JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, dataset, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int index = 0;
        for (String backend : series.keySet()) {
            renderer.setSeriesPaint(index, colour(backend));
            renderer.setSeriesStroke(index, new BasicStroke(3f));
            index++;
        }
        plot.setRenderer(renderer);
        NumberAxis x = (NumberAxis) plot.getDomainAxis();
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setAutoRangeIncludesZero(false);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        style(chart, plot.getDomainAxis(), plot.getRangeAxis());
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }

    /** Grouped bars: one group per user count, one bar per backend, each labelled with its value. */
    void bars(Path file, String title, String xLabel, String yLabel, Map<String, SortedMap<Integer, Double>> series)
            throws IOException {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        series.forEach((backend, points) -> points.forEach((users, value) -> dataset.addValue(value, backend,
                users)));
        JFreeChart chart = ChartFactory.createBarChart(title, xLabel, yLabel, dataset, PlotOrientation.VERTICAL, true,
                false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}",
                new DecimalFormat("#,##0")));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(new Font(FONT, Font.PLAIN, 13));
        int index = 0;
        for (String backend : series.keySet()) {
            renderer.setSeriesPaint(index++, colour(backend));
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        style(chart, plot.getDomainAxis(), plot.getRangeAxis());
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }

    private Paint colour(String backend) {
        int index = backends.indexOf(backend);
        return PALETTE[Math.floorMod(index, PALETTE.length)];
    }

    private static void style(JFreeChart chart, Axis domain, Axis range) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(new Font(FONT, Font.BOLD, 22));
        for (Axis axis : List.of(domain, range)) {
            axis.setLabelFont(new Font(FONT, Font.PLAIN, 16));
            axis.setTickLabelFont(new Font(FONT, Font.PLAIN, 14));
        }
        LegendTitle legend = chart.getLegend();
        legend.setItemFont(new Font(FONT, Font.PLAIN, 15));
        legend.setItemLabelPadding(new RectangleInsets(2, 4, 2, 18)); // room between one backend and the next
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setFrame(BlockBorder.NONE);
    }
}
